import FoundationEssentials
import Glibc
import OutboxModel
import Synchronization

/// Finds the delivery services: loaded in this process (`outbox-delivery`), or by handing the
/// whole command line over to `outbox-delivery` next to this executable. Commands call
/// `services()` before they write anything, so handing over never repeats a write.
public enum DeliveryProgram {
    public static let executableName = "outbox-delivery"

    private static let installed = Mutex<(any DeliveryServices)?>(nil)

    /// Called once by `outbox-delivery`'s entry point.
    public static func install(_ services: any DeliveryServices) {
        installed.withLock { $0 = services }
    }

    /// The services, or — in the `outbox` front end — never returns: the process becomes
    /// `outbox-delivery` with the same arguments, environment and standard streams.
    public static func services() throws -> any DeliveryServices {
        if let services = installed.withLock({ $0 }) { return services }
        let path = siblingPath()
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw OutboxError(.unavailable, "this command needs \(executableName), which is not next to outbox (\(path)); install both binaries in the same directory")
        }
        let arguments = [path] + CommandLine.arguments.dropFirst()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        execv(path, &argv)
        throw OutboxError(.unavailable, "cannot start \(path): \(String(cString: strerror(errno)))")
    }

    /// `outbox-delivery` in the directory of the running executable.
    static func siblingPath() -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return Paths.appending(Paths.deletingLastComponent(executable), executableName)
    }
}
