import AsyncHTTPClient
import HTTPTypes
import Logging
import LoggingTestSupport
import Objection
import ObjectionOpenAPI
import OpenAPIRuntime
import ServerFixtures
import TestSupport
import Testing

/// What a client hears of a failed operation, what the log says, and how the scope ends.
@Suite("Errors", .timeLimit(.minutes(1)))
struct ErrorAnswerTests {
    /// Serves `path` once under `transport` with `middlewares` before Objection's, and returns the
    /// answer, the log, and the scope's disposals.
    static func call(
        _ path: String,
        on transport: Transport,
        shutDownFirst: Bool = false,
        values: @escaping @Sendable (ObjectionOpenAPIMiddleware.Call, inout ScopeValues) async throws -> Void = {
            _, _ in
        }
    ) async throws -> (status: Int, text: String, logs: LogCapture, disposed: [ScopeLedger.Disposal]) {
        let ledger = ScopeLedger()
        let logs = LogCapture()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        if shutDownFirst { await injector.shutdown() }
        let objection = ObjectionOpenAPIMiddleware(injector, logger: logs.logger(), values: values)
        let answer = try await transport.serve(TestAPI(), middlewares: [objection]) { port in
            try await withHTTPClient { client in try await client.get(port: port, path) }
        }
        await injector.shutdown()
        #expect(ledger.built == ledger.disposed.count, "a scope built its unit of work and was never ended")
        return (answer.status, answer.text, logs, ledger.disposed)
    }

    @Test(
        "An injection error: an opaque 500; the log names the type; the scope ends failed",
        arguments: Transport.allCases)
    func injectionError(transport: Transport) async throws {
        let answer = try await Self.call("/failure/unbound", on: transport)
        #expect(answer.status == 500)
        #expect(answer.text == "Internal Server Error")
        let logged = answer.logs.entries(withMessage: "Operation failed; answered 500")
        #expect(logged.count == 1)
        #expect(logged.first.map { "\($0.metadata)".contains("SecretPaymentGateway") } == true)
        #expect(logged.first?.metadata["openapi.operation"] == "getFailure")
        #expect(answer.disposed.count == 1)
        #expect(answer.disposed.first?.error is InjectionError)
    }

    @Test("A provider's error: an opaque 500, logged by its type, its secret in neither", arguments: Transport.allCases)
    func providerError(transport: Transport) async throws {
        let answer = try await Self.call("/failure/provider", on: transport)
        #expect(answer.status == 500)
        #expect(answer.text == "Internal Server Error")
        let logged = answer.logs.entries(withMessage: "Operation failed; answered 500")
        #expect(logged.count == 1)
        #expect(logged.first.map { "\($0.metadata)".contains("VaultSealedError") } == true)
        #expect(!answer.logs.all.contains { "\($0)".contains(VaultSealedError.secret) })
        #expect(answer.disposed.count == 1)
        #expect(answer.disposed.first?.error is VaultSealedError)
    }

    @Test(
        "An error that says its status is answered with it, without ErrorHandlingMiddleware",
        arguments: Transport.allCases)
    func convertibleErrorAnswered(transport: Transport) async throws {
        let answer = try await Self.call("/failure/not-found", on: transport)
        #expect(answer.status == 404)
        #expect(answer.logs.entries(withMessage: "Operation failed; answered 500").isEmpty)
        #expect(answer.disposed.count == 1)
        #expect(answer.disposed.first?.error is TestAPI.NotFound)
    }

    @Test("A declared 5xx response reaches the client unchanged; the scope ends failed", arguments: Transport.allCases)
    func declaredServerError(transport: Transport) async throws {
        let answer = try await Self.call("/failure/unavailable", on: transport)
        #expect(answer.status == 503)
        #expect(answer.text == "try later")
        #expect(answer.disposed.count == 1)
        #expect((answer.disposed.first?.error as? OpenAPIServerErrorStatus)?.status == .serviceUnavailable)
    }

    @Test(
        "A disposal that fails after a success: the client does not get the whole answer", arguments: Transport.allCases
    )
    func failedDisposal(transport: Transport) async throws {
        let ledger = ScopeLedger()
        let injector = try await InjectorActor(modules: [RequestModule(ledger: ledger)])
        let objection = ObjectionOpenAPIMiddleware(injector, logger: LogCapture().logger())
        let answer = try await transport.serve(TestAPI(), middlewares: [objection]) { port in
            try await withHTTPClient { client in try? await client.get(port: port, "/failure/uncommittable") }
        }
        #expect(answer == nil || answer?.text != "no failure", "a failed commit looked committed")
        // The unit of work beside the failing one is told of the success it was disposed after.
        #expect(ledger.disposed.count == 1)
        await injector.shutdown()
    }

    @Test(
        "The values closure's errors: its status if it says one, else the opaque 500; no scope opened",
        arguments: Transport.allCases)
    func valuesClosureErrors(transport: Transport) async throws {
        let refused = try await Self.call("/work", on: transport) { _, _ in throw TestAPI.NotFound() }
        #expect(refused.status == 404)
        #expect(refused.disposed.isEmpty)
        let failed = try await Self.call("/work", on: transport) { _, _ in throw VaultSealedError() }
        #expect(failed.status == 500)
        #expect(failed.text == "Internal Server Error")
        #expect(!failed.logs.all.contains { "\($0)".contains(VaultSealedError.secret) })
        #expect(failed.disposed.isEmpty)
    }

    @Test("An injector shutting down refuses the scope: 503, logged below error", arguments: Transport.allCases)
    func shutDownInjector(transport: Transport) async throws {
        let answer = try await Self.call("/work", on: transport, shutDownFirst: true)
        #expect(answer.status == 503)
        #expect(answer.text == "Service Unavailable")
        #expect(answer.logs.entries(at: .error).isEmpty)
        #expect(answer.disposed.isEmpty)
    }

    @Test("A success: the scope ends succeeded, once", arguments: Transport.allCases)
    func success(transport: Transport) async throws {
        let answer = try await Self.call("/failure/none", on: transport)
        #expect(answer.status == 200)
        #expect(answer.text == "no failure")
        #expect(answer.disposed.count == 1)
        #expect(answer.disposed.first?.error == nil)
    }
}
