import Foundation
import Hummingbird
import Logging
import ObjectionHummingbird
import Synchronization
import TestSupport

/// The port a test server listens on, once it does.
final class ListeningPort: Sendable {
    private let value = Mutex<Int?>(nil)
    private let listening = Signal()

    /// The port, `nil` until the server listens.
    var current: Int? { value.withLock { $0 } }

    /// Waits until the server listens, and returns its port.
    func wait() async throws -> Int {
        try await listening.wait()
        return value.withLock { $0 } ?? 0
    }

    fileprivate func listens(on port: Int?) {
        value.withLock { $0 = port }
        listening.fire()
    }
}

/// An application serving `router` on an ephemeral loopback port, which it reports to `port`
/// once it listens; it logs with `logger`, by default only what is critical.
func loopbackApplication(
    _ router: Router<BasicInjectingRequestContext>,
    port: ListeningPort,
    logger: Logger = Logger(label: "loopback-application") { _ in SwiftLogNoOpLogHandler() }
) -> Application<RouterResponder<BasicInjectingRequestContext>> {
    Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in port.listens(on: channel.localAddress?.port) },
        logger: logger
    )
}

/// `rawHTTPExchange` on a thread of its own: its blocking reads must not hold one of the few
/// threads the server's tasks need to answer it.
func exchangeOnThread(port: Int, _ text: String) async -> String {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: rawHTTPExchange(port: port, text)) }.start()
    }
}
