import GRPCCore
import ServiceLifecycle
import Synchronization

/// Whether an RPC was cut short — its client left, or its deadline passed — before a graceful
/// shutdown began, as seen while its handler and then its response's producer run.
///
/// grpc-swift cancels the RPC's handle for all three, so the order decides: the service group
/// runs its graceful-shutdown handlers as the shutdown begins (``shutdownBegan()``), before the
/// transport, on its event loops, cancels the handles of the RPCs in flight; a cancellation seen
/// before that (``handleCancelled()``) is the client's or the deadline's. Should the transport
/// ever cancel first, the RPC ends as cut short: its work is rolled back and its client told so,
/// never the reverse.
final class CutWatch: Sendable {
    private struct State {
        var isShuttingDown = false
        var isCut: Bool
    }

    private let state: Mutex<State>

    /// A watch that starts `isCut` when the handle was seen cancelled outside a shutdown before
    /// the interceptor began.
    init(isCut: Bool) {
        state = Mutex(State(isCut: isCut))
    }

    /// Runs `body`, the RPC's handler or its producer, watching its handle and the graceful
    /// shutdown: each handler runs at once if what it waits for has already happened.
    func watching<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await withGracefulShutdownHandler {
            try await withRPCCancellationHandler {
                try await body()
            } onCancelRPC: {
                self.handleCancelled()
            }
        } onGracefulShutdown: {
            self.shutdownBegan()
        }
    }

    /// Whether the RPC was cut short before any graceful shutdown began.
    var isCut: Bool { state.withLock { $0.isCut } }

    /// The RPC's handle was cancelled: a cut, unless a graceful shutdown has begun.
    func handleCancelled() {
        state.withLock { state in
            if !state.isShuttingDown { state.isCut = true }
        }
    }

    /// A graceful shutdown began: a cancellation from now on may be the transport's.
    func shutdownBegan() {
        state.withLock { $0.isShuttingDown = true }
    }
}
