import Logging
import Objection
import ObjectionVapor
import Testing
import Vapor
import VaporTesting

/// The README's example, compiled and run: keep the two in step.
@Suite("README example")
struct ReadmeExampleTests {
    struct Greeter: Sendable {
        let requestID: RequestIdentifier
        func greet() -> String { "hello from request \(requestID)" }
    }

    struct AppModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(RequestIdentifier.self).suppliedByScope()
            binder.bind(Logger.self).suppliedByScope()
            binder.bind(Greeter.self).to(Greeter.init).inScope(.scoped)
        }
    }

    @Test("The example answers with the request's id")
    func example() async throws {
        try await withTestApp { app in
            let injector = try await InjectorActor(modules: [AppModule()], startup: .deferred)
            app.useInjector(injector, startupTimeout: .seconds(10))
            app.middleware.use(ObjectionScopeMiddleware(injector))
            app.get("hello") { req async throws -> String in try await req.resolve(Greeter.self).greet() }
            try await app.asyncBoot()
            let response = try await app.testing().sendRequest(.GET, "hello", headers: ["X-Request-Id": "r1"])
            #expect(response.body.string == "hello from request r1")
        }
    }
}
