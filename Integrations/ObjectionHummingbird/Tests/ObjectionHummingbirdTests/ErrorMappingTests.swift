import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import LoggingTestSupport
import Objection
import ObjectionHummingbird
import ServerFixtures
import Testing

/// Injection and provider errors become a `500` that names nothing, logged by type (an injection
/// error by its description); HTTP errors
/// pass through.
@Suite("Error mapping")
struct ErrorMappingTests {
    @Test("A missing binding is a 500 whose body names no type; the log has the details")
    func missingBinding() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("pay") { _, context -> String in
                _ = try await context.resolve(SecretPaymentGateway.self)
                return "paid"
            }
        }
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/scoped/pay", method: .get, headers: .requestID("pay-1"))
            #expect(response.status == .internalServerError)
            #expect(!response.text.contains("SecretPaymentGateway"))
            #expect(!response.text.contains("missingBinding"))
            #expect(response.requestID == "pay-1")
        }
        let logged = try #require(test.logs.entries(at: .error).first)
        #expect(logged.metadata["error"]?.description.contains("SecretPaymentGateway") == true)
        #expect(logged.metadata["error.type"]?.description.contains("InjectionError") == true)
        #expect(logged.metadata["request-id"] == "pay-1")
    }

    @Test("A provider's own error is a 500 whose body names nothing of it; its description reaches no log")
    func providerError() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("vault") { _, context -> String in
                _ = try await context.resolve(SealedVault.self)
                return "open"
            }
        }
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/scoped/vault", method: .get)
            #expect(response.status == .internalServerError)
            for detail in ["VaultSealedError", "SealedVault", "vault.internal"] {
                #expect(!response.text.contains(detail))
            }
        }
        let logged = try #require(test.logs.entries(at: .error).first)
        #expect(logged.metadata["error.type"]?.description.contains("VaultSealedError") == true)
        // Its description carries a password: no log line may.
        #expect(test.logs.all.allSatisfy { !"\($0)".contains(VaultSealedError.secret) })
    }

    @Test("A request the injector refuses because it is shutting down is a 503, logged at notice, not an error")
    func refusedWhileShuttingDown() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("pay") { _, _ -> String in "paid" }
        }
        _ = await test.injector.shutdown(within: nil)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/scoped/pay", method: .get, headers: .requestID("late-1"))
            #expect(response.status == .serviceUnavailable)
            #expect(!response.text.contains("InjectionError"))
            #expect(response.requestID == "late-1")
        }
        #expect(test.logs.entries(at: .error).isEmpty)
        let logged = try #require(test.logs.entries(at: .notice).first)
        #expect(logged.message.description.contains("answered 503"))
        #expect(logged.metadata["request-id"] == "late-1")
    }

    @Test("An HTTPError passes through as Hummingbird renders it without the middleware")
    func httpErrorUnchanged() async throws {
        let test = try await TestApp()
        let failure = HTTPError(.notFound, headers: [.retryAfter: "5"], message: "No order 7")
        let app = test.application { scoped, root in
            scoped.get("order") { _, _ -> String in throw failure }
            root.get("order") { _, _ -> String in throw failure }
        }
        try await app.test(.router) { client in
            let scoped = try await client.execute(uri: "/scoped/order", method: .get)
            let plain = try await client.execute(uri: "/order", method: .get)
            #expect(scoped.status == .notFound)
            #expect(scoped.status == plain.status)
            #expect(scoped.text == plain.text)
            #expect(scoped.headers[.retryAfter] == "5")
            #expect(scoped.text.contains("No order 7"))
        }
        #expect(test.logs.entries(at: .error).isEmpty)
    }

    @Test("An HTTPError thrown by the values closure refuses the request unchanged")
    func closureRefuses() async throws {
        let test = try await TestApp()
        let router = Router(context: BasicInjectingRequestContext.self)
        router.add(
            middleware: ObjectionScopeMiddleware(test.injector) { _, _, _ in
                throw HTTPError(.unauthorized, message: "Sign in")
            })
        router.get("private") { _, _ in "secret" }
        try await Application(router: router).test(.router) { client in
            let response = try await client.execute(uri: "/private", method: .get)
            #expect(response.status == .unauthorized)
            #expect(response.text.contains("Sign in"))
        }
    }
}
