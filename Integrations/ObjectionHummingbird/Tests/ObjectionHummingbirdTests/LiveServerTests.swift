import Hummingbird
import HummingbirdTesting
import Logging
import LoggingTestSupport
import ObjectionHummingbird
import ServerFixtures
import Testing

/// The middleware over a real socket: a running server, requests in sequence on one connection.
@Suite("Live server")
struct LiveServerTests {
    @Test("Scopes, disposal, errors and the request id over HTTP")
    func live() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, _ in
            scoped.get("work") { _, context -> String in
                context.logger.info("work")
                let work = try await context.resolve(RequestWork.self)
                return "\(work.serial) \(work.label)"
            }
            scoped.get("pay") { _, context -> String in
                _ = try await context.resolve(SecretPaymentGateway.self)
                return "paid"
            }
        }
        try await app.test(.live) { client in
            let first = try await client.execute(uri: "/scoped/work", method: .get, headers: .requestID("live-1"))
            #expect(first.status == .ok)
            #expect(first.text == "1 live-1")
            #expect(first.requestID == "live-1")
            #expect(test.ledger.disposed.map(\.serial) == [1])

            let second = try await client.execute(uri: "/scoped/work", method: .get, headers: .requestID("live-2"))
            #expect(second.text == "2 live-2")
            #expect(test.ledger.disposed.map(\.serial) == [1, 2])

            let failed = try await client.execute(uri: "/scoped/pay", method: .get, headers: .requestID("live-3"))
            #expect(failed.status == .internalServerError)
            #expect(failed.requestID == "live-3")
            #expect(!failed.text.contains("SecretPaymentGateway"))
        }
        let logged = test.logs.entries(withMessage: "work").compactMap { $0.metadata["request-id"]?.description }
        #expect(logged == ["live-1", "live-2"])
    }
}
