import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import LoggingTestSupport
import NIOCore
import Objection
import ObjectionHummingbird
import ServerFixtures

/// The request's user, a value the scope middleware's closure binds from a header.
struct User: Sendable, Equatable {
    var name: String
}

/// The tests' graph: the request's id and user come from the scope's values.
struct TestModule: Module {
    let ledger: ScopeLedger

    func configure(_ binder: Binder) {
        RequestWorkModule(ledger: ledger).configure(binder)
        binder.bind(User.self).suppliedByScope()
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
