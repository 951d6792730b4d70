import Dispatch
import FoundationEssentials
import Glibc

/// SIGINT and SIGTERM as Dispatch sources: the first asks for a graceful stop, the second
/// means "now". The default handlers are ignored while installed and restored by `cancel()`.
final class SignalHandling {
    private var sources: [DispatchSourceSignal] = []
    private var count = 0

    /// Both handlers run on `queue`, with the signal's name.
    init(queue: DispatchQueue, first: @escaping (String) -> Void, second: @escaping (String) -> Void) {
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [unowned self] in
                count += 1
                if count == 1 { first(name) } else { second(name) }
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
