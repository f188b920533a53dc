import Ledger
import Logging
import LoggingTestSupport
import NIOHTTP1
import Objection
import ObjectionVapor
import Testing
import Vapor

/// Refused requests journal and store nothing; an injection error, or any error that is not
/// an HTTP one, is a `500` that names nothing, logged in full with the request's id.
@Suite("Authentication and errors", .timeLimit(.minutes(2)))
struct ErrorTests {
    @Test("Without a valid bearer both routes answer 401 with WWW-Authenticate, and journal nothing")
    func unauthenticated() async throws {
        try await TestServer.with { server in
            let account = try await server.openAccount(owner: "alice", balance: 1)
            let before = try await server.stats()
            for path in ["/accounts/\(account.id)", "/plain/accounts/\(account.id)"] {
                for teller in [nil, "", "two words", String(repeating: "x", count: 65)] {
                    let reply = try await server.send(.GET, path, teller: teller)
                    #expect(reply.status == .unauthorized, "\(path) as \(teller ?? "nobody")")
                    #expect(reply.headers.first(name: "WWW-Authenticate") == "Bearer")
                }
            }
            let after = try await server.stats()
            #expect(after.succeeded == before.succeeded)
            #expect(after.failed == before.failed)
        }
    }

    @Test("Unknown accounts are 404 on both routes; invalid bodies are 400 and store nothing")
    func notFoundAndBadRequests() async throws {
        try await TestServer.with { server in
            let alice = try await server.openAccount(owner: "alice", balance: 10)
            for path in ["/accounts/999999", "/plain/accounts/999999", "/accounts/not-a-number"] {
                let reply = try await server.send(.GET, path, teller: "tom")
                #expect(reply.status == .notFound, "\(path)")
            }
            let refused = [
                ("/accounts", #"{"owner":"","balance":1}"#),
                ("/accounts", #"{"owner":"bob","balance":-1}"#),
                ("/accounts", #"{"owner":"bob"}"#),
                ("/accounts", "not json"),
                ("/transfers", try json(TransferRequest(from: alice.id, to: alice.id, amount: 1))),
                ("/transfers", try json(TransferRequest(from: alice.id, to: alice.id + 1, amount: 0))),
            ]
            for (path, body) in refused {
                let reply = try await server.send(.POST, path, teller: "tom", json: body)
                #expect(reply.status == .badRequest, "\(path) \(body)")
            }
            #expect(try await server.stats().accounts == 1)
            #expect(try await server.committedTransfers() == 0)
        }
    }

    @Test("An injection error is an opaque 500 that names nothing, logged with the request's id")
    func injectionErrorIsOpaque() async throws {
        try await TestServer.with(modules: [BrokenServiceModule()]) { server in
            let reply = try await server.send(.GET, "/accounts/1", teller: "tom", requestID: "broken-1")
            #expect(reply.status == .internalServerError)
            #expect(try reply.decode(ErrorBody.self) == .opaque)
            #expect(!reply.body.contains("PaymentGateway"))
            let logged = server.logs.entries(at: .error).filter { $0.message == "Request failed; answered 500" }
            #expect(logged.count == 1)
            #expect(logged.first?.metadata["request-id"] == "broken-1")
            #expect(logged.first.map { "\($0.metadata["error"] ?? "")".contains("PaymentGateway") } == true)
        }
    }
}

/// A type no module binds, whose name must never reach a response.
struct PaymentGateway: Sendable {}

/// Rebinds the handlers' service to a provider that needs ``PaymentGateway``: a closure's
/// dependencies are not checked when the injector is built, so the request fails with a
/// `missingBinding`.
struct BrokenServiceModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(LedgerService.self).to { resolver in
            _ = try await resolver.get(PaymentGateway.self)
            throw InjectionError(code: .invalidConfiguration, message: "unreachable")
        }
    }
}
