import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Objection
import ObjectionHummingbird
import ServerFixtures
import Testing

/// What handlers resolve from their context: the request's values, and a clear error where there
/// is no scope.
@Suite("Resolution from the context")
struct ResolutionTests {
    @Test("Values bound by the middleware's closure are resolvable, and scoped services see them")
    func closureValuesResolve() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("me") { _, context -> String in
                let user = try await context.resolve(User.self)
                let id = try await context.resolve(RequestIdentifier.self)
                let work = try await context.resolve(RequestWork.self)
                return "\(user.name) \(id.value) \(work.label == id.value)"
            }
        }
        try await app.test(.router) { client in
            var headers = HTTPFields.requestID("req-1")
            headers[.authorization] = "ann"
            let response = try await client.execute(uri: "/scoped/me", method: .get, headers: headers)
            #expect(response.status == .ok)
            #expect(response.text == "ann req-1 true")
        }
    }

    @Test("A named value resolves by its name")
    func namedValue() async throws {
        let test = try await TestApp()
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(
            middleware: ObjectionScopeMiddleware(test.injector) { _, _, values in
                values.bind(String.self, named: "tenant", to: "acme")
            })
        router.get("tenant") { _, context -> String in try await context.resolve(String.self, named: "tenant") }
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/tenant", method: .get)
            #expect(response.text == "acme")
        }
    }

    @Test("Resolving where no scope middleware runs throws a scope violation, not a crash")
    func outsideTheMiddleware() async throws {
        let test = try await TestApp()
        let app = test.application { _, root in
            root.get("unscoped") { _, context -> String in
                do {
                    _ = try await context.resolve(RequestWork.self)
                    return "resolved"
                } catch let error as InjectionError {
                    return "\(error.code) \(error.message.contains("ObjectionScopeMiddleware"))"
                }
            }
        }
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/unscoped", method: .get)
            #expect(response.text == "scopeViolation true")
        }
    }
}
