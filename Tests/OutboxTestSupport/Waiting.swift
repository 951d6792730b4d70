import Foundation

/// Polls `condition` every 10 ms until it holds or `seconds` pass; returns whether it held.
/// Tests wait on an event or a deadline like this, never on a bare sleep.
public func waitUntil(_ seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// Runs blocking `work` on a Dispatch thread and awaits it, so a blocking call (a worker run)
/// does not occupy one of Swift Concurrency's few cooperative threads.
public func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
