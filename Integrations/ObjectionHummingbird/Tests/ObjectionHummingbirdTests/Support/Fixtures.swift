import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import LoggingTestSupport
import NIOCore
import Objection
import ObjectionHummingbird
import Synchronization

/// What the tests' scoped instances report: how many were built and which were disposed.
final class ScopeLedger: Sendable {
    private let state = Mutex<(built: Int, disposed: [Int])>((0, []))

    /// A new serial number, one per built instance, from 1.
    func nextSerial() -> Int {
        state.withLock { state in
            state.built += 1
            return state.built
        }
    }

    func recordDisposal(of serial: Int) {
        state.withLock { $0.disposed.append(serial) }
    }

    /// The serial numbers of the disposed instances, in order of disposal.
    var disposed: [Int] { state.withLock { $0.disposed } }
}

/// The request's user, a value the scope middleware's closure binds from a header.
struct User: Sendable, Equatable {
    var name: String
}

/// A per-request unit of work: built once per request scope, disposed when the request ends.
final class RequestWork: AsyncDisposable {
    let serial: Int
    let requestID: RequestIdentifier
    let ledger: ScopeLedger

    init(serial: Int, requestID: RequestIdentifier, ledger: ScopeLedger) {
        self.serial = serial
        self.requestID = requestID
        self.ledger = ledger
    }

    func dispose() async throws {
        ledger.recordDisposal(of: serial)
    }
}

/// A scoped instance whose disposal fails, as a transaction whose commit fails would.
struct UncommittableTransaction: AsyncDisposable {
    struct CommitFailed: Error {}

    func dispose() async throws {
        throw CommitFailed()
    }
}

/// A type no module binds, whose name must never reach a response.
struct SecretPaymentGateway: Sendable {}

/// A type whose provider fails, with an error whose name must never reach a response.
struct SealedVault: Sendable {}

struct VaultSealedError: Error, CustomStringConvertible {
    var description: String { "VaultSealedError: postgres://app:Tr0ub4dor&3@vault.internal:8200 is sealed" }
}

/// The tests' graph: the request's id and user come from the scope's values.
struct TestModule: Module {
    let ledger: ScopeLedger

    func configure(_ binder: Binder) {
        binder.bind(RequestIdentifier.self).suppliedByScope()
        binder.bind(User.self).suppliedByScope()
        binder.bind(RequestWork.self)
            .to { [ledger] r in
                let id = try await r.get(RequestIdentifier.self)
                return RequestWork(serial: ledger.nextSerial(), requestID: id, ledger: ledger)
            }
            .inScope(.scoped)
        binder.bind(UncommittableTransaction.self).to { _ in UncommittableTransaction() }.inScope(.scoped)
        binder.bind(SealedVault.self).to { _ in throw VaultSealedError() }
    }
}

/// An application whose `/scoped` routes run under ``ObjectionScopeMiddleware`` and whose other
/// routes do not, logging into `logs`.
struct TestApp {
    let ledger = ScopeLedger()
    let logs = LogCapture()
    let injector: InjectorActor

    init() async throws {
        injector = try await InjectorActor(modules: [TestModule(ledger: ledger)])
    }

    /// The application, with the routes `addRoutes` adds to the `/scoped` group and to the root.
    func application(
        addRoutes: (
            _ scoped: RouterGroup<BasicInjectingRequestContext>, _ root: Router<BasicInjectingRequestContext>
        ) -> Void
    ) -> some ApplicationProtocol {
        let router = Router(context: BasicInjectingRequestContext.self)
        let scoped = router.group("scoped").add(middleware: scopeMiddleware())
        addRoutes(scoped, router)
        return Application(router: router, logger: logs.logger())
    }

    /// The scope middleware of the `/scoped` routes: it binds the request's id, and its user from
    /// the `Authorization` header.
    func scopeMiddleware() -> ObjectionScopeMiddleware<BasicInjectingRequestContext> {
        ObjectionScopeMiddleware(injector) { request, context, values in
            if let id = context.requestID { values.bind(RequestIdentifier.self, to: id) }
            if let name = request.headers[.authorization] { values.bind(User.self, to: User(name: name)) }
        }
    }
}

extension HTTPField.Name {
    static let requestID = HTTPField.Name("X-Request-ID")
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The `X-Request-ID` header, if any.
    var requestID: String? { HTTPField.Name.requestID.flatMap { headers[$0] } }
}

extension HTTPFields {
    /// Fields with `X-Request-ID: id`, or none.
    static func requestID(_ id: String?) -> HTTPFields {
        guard let id, let name = HTTPField.Name.requestID else { return [:] }
        return [name: id]
    }
}
