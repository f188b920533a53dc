import Hummingbird
import HummingbirdTesting
import Logging
import ObjectionHummingbird
import Testing

/// The request's id reaches the request's logger and the response.
@Suite("Request id")
struct RequestIDTests {
    /// An app whose `/scoped/hello` logs `hello` and answers with the id the context holds.
    static func helloApp(_ test: TestApp) -> some ApplicationProtocol {
        test.application { scoped, _ in
            scoped.get("hello") { _, context -> String in
                context.logger.info("hello")
                return context.requestID?.value ?? "none"
            }
        }
    }

    @Test("A well-formed X-Request-ID reaches the logger's metadata, the context and the response")
    func clientIDPropagates() async throws {
        let test = try await TestApp()
        try await Self.helloApp(test).test(.router) { client in
            let response = try await client.execute(
                uri: "/scoped/hello", method: .get, headers: .requestID("client-7:a.b_c"))
            #expect(response.requestID == "client-7:a.b_c")
            #expect(response.text == "client-7:a.b_c")
        }
        let hello = try #require(test.logs.entries(withMessage: "hello").first)
        #expect(hello.metadata["request-id"] == "client-7:a.b_c")
    }

    @Test(
        "A missing or malformed X-Request-ID is replaced by Hummingbird's id for the request",
        arguments: [nil, "", "two words", "line\u{0B}tab", String(repeating: "x", count: 129)] as [String?]
    )
    func generatedID(sent: String?) async throws {
        let test = try await TestApp()
        try await Self.helloApp(test).test(.router) { client in
            let response = try await client.execute(uri: "/scoped/hello", method: .get, headers: .requestID(sent))
            let id = try #require(response.requestID)
            #expect(id != sent)
            #expect(response.text == id)
        }
        let hello = try #require(test.logs.entries(withMessage: "hello").first)
        let logged = try #require(hello.metadata["request-id"]?.description)
        #expect(logged == hello.metadata["hb.request.id"]?.description)
    }
}
