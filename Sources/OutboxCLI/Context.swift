import FoundationEssentials
import OutboxModel
import OutboxStore

/// What every command shares: where the config and database are, the loaded config, the open
/// store, and where output goes. Opened lazily, so `--help` and bad flags touch nothing.
public final class Context {
    public let configPath: String?
    public let databaseOverride: String?
    public let environment: [String: String]
    public var output: Output

    private var loadedConfig: Config?
    private var openStore: OutboxStore?

    public init(configPath: String?, databasePath: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                output: Output = Output()) {
        self.configPath = configPath
        self.databaseOverride = databasePath
        self.environment = environment
        self.output = output
    }

    /// Config lookup: `--config`, `$OUTBOX_CONFIG`, `$XDG_CONFIG_HOME/outbox/config.json`
    /// (or `~/.config/outbox/config.json`); none at all means the embedded defaults.
    public func config() throws -> Config {
        if let loadedConfig { return loadedConfig }
        let config: Config
        if let path = configPath ?? environment["OUTBOX_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            config = try Config.load(path: Paths.expand(path))
        } else if FileManager.default.fileExists(atPath: Paths.defaultConfigFile) {
            config = try Config.load(path: Paths.defaultConfigFile)
        } else {
            config = Config()
        }
        loadedConfig = config
        return config
    }

    /// Database lookup: `--db`, `$OUTBOX_DB`, config `database`, `$XDG_DATA_HOME/outbox/outbox.sqlite`.
    public func databasePath() throws -> String {
        if let databaseOverride { return Paths.expand(databaseOverride) }
        if let env = environment["OUTBOX_DB"], !env.isEmpty { return Paths.expand(env) }
        if let configured = try config().database { return configured }
        return Paths.defaultDatabase
    }

    /// The store, opened (and created and migrated) on first use.
    public func store() throws -> OutboxStore {
        if let openStore { return openStore }
        let store = try OutboxStore.open(path: try databasePath())
        openStore = store
        return store
    }

    public func close() {
        openStore?.close()
        openStore = nil
    }

    public func retryPolicies() throws -> [Channel: RetryPolicy] {
        let config = try config()
        return Dictionary(uniqueKeysWithValues: Channel.allCases.map { ($0, config.retryPolicy($0)) })
    }
}
