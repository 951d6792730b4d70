/// Options every command accepts, before or after the command name.
enum GlobalOptions {
    static let specs: [OptionSpec] = [
        .value("db", "PATH", "database file (default: $OUTBOX_DB, config `database`, ~/.local/share/outbox/outbox.sqlite)"),
        .value("config", "PATH", "config file (default: $OUTBOX_CONFIG, ~/.config/outbox/config.json, else built-in defaults)"),
        .flag("help", "show this help"),
    ]
}
