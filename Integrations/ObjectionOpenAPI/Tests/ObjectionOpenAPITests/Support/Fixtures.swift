import HTTPTypes
import Objection
import ObjectionOpenAPI
import Synchronization

/// What the tests' scoped units of work report: one built per scope, one disposal per scope
/// ended, with the outcome it was disposed after.
final class ScopeLedger: Sendable {
    struct Disposal: Sendable {
        var serial: Int
        var operation: String
        var error: (any Error)?
    }

    private let state = Mutex<(built: Int, disposed: [Disposal])>((0, []))
    /// Told of each disposal, for tests that wait for one without a clock.
    let disposals: AsyncStream<Disposal>
    private let continuation: AsyncStream<Disposal>.Continuation

    init() {
        (disposals, continuation) = AsyncStream.makeStream(of: Disposal.self)
    }

    /// A new serial number, one per unit of work built, from 1.
    func nextSerial() -> Int {
        state.withLock { state in
            state.built += 1
            return state.built
        }
    }

    func record(_ disposal: Disposal) {
        state.withLock { $0.disposed.append(disposal) }
        continuation.yield(disposal)
    }

    var built: Int { state.withLock { $0.built } }
    var disposed: [Disposal] { state.withLock { $0.disposed } }
}

/// A per-operation unit of work: built once per scope, disposed when the response has been
/// written, told how the operation ended.
final class RequestWork: OutcomeAwareDisposable {
    let serial: Int
    let operation: OpenAPIOperation
    let ledger: ScopeLedger
    private let disposed = Atomic(false)

    init(serial: Int, operation: OpenAPIOperation, ledger: ScopeLedger) {
        self.serial = serial
        self.operation = operation
        self.ledger = ledger
    }

    /// `alive` until disposed, then `DISPOSED`: what a chunk written after the disposal would read.
    var state: String { disposed.load(ordering: .acquiring) ? "DISPOSED" : "alive" }

    func dispose(after outcome: ScopeOutcome) async throws {
        disposed.store(true, ordering: .releasing)
        ledger.record(.init(serial: serial, operation: operation.id, error: outcome.error))
    }
}

/// A scoped unit of work whose disposal fails, as a transaction whose commit fails would.
struct UncommittableWork: AsyncDisposable {
    struct CommitFailed: Error {}

    func dispose() async throws {
        throw CommitFailed()
    }
}

/// A type no module binds, whose name may be logged but must never reach a response.
struct SecretPaymentGateway: Sendable {}

/// A type whose provider fails with an error that carries a password.
struct SealedVault: Sendable {}

/// A provider's error whose description carries a secret: never in a response or a log.
struct VaultSealedError: Error, CustomStringConvertible {
    var password = "hunter2"
    var description: String { "vault sealed, password \(password)" }
}

/// The tests' graph: the unit of work reads the operation the middleware binds.
struct RequestModule: Module {
    let ledger: ScopeLedger

    func configure(_ binder: Binder) {
        binder.bind(OpenAPIOperation.self).suppliedByScope()
        binder.bind(HTTPRequest.self).suppliedByScope()
        binder.bind(RequestWork.self)
            .to { [ledger] r in
                RequestWork(
                    serial: ledger.nextSerial(), operation: try await r.get(OpenAPIOperation.self), ledger: ledger)
            }
            .inScope(.scoped)
        binder.bind(SealedVault.self).to { _ in throw VaultSealedError() }
        binder.bind(UncommittableWork.self).to { _ in UncommittableWork() }.inScope(.scoped)
    }
}
