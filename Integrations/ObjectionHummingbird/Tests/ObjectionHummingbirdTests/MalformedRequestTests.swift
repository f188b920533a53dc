import Hummingbird
import HummingbirdTesting
import Logging
import LoggingTestSupport
import TestSupport
import Testing

@Suite("Malformed requests", .timeLimit(.minutes(1)))
struct MalformedRequestTests {
    @Test("a body that is not valid HTTP gets Hummingbird's own 400 under the middleware too, and no error log")
    func malformedChunkedBody() async throws {
        let test = try await TestApp()
        let app = test.application { scoped, root in
            scoped.post("echo") { request, _ -> String in
                String(buffer: try await request.body.collect(upTo: 1024))
            }
            root.post("echo") { request, _ -> String in
                String(buffer: try await request.body.collect(upTo: 1024))
            }
        }
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let malformed = "Host: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\nZZ\r\nabc\r\n0\r\n\r\n"
            let plain = rawHTTPExchange(port: port, "POST /echo HTTP/1.1\r\n" + malformed)
            let scoped = rawHTTPExchange(port: port, "POST /scoped/echo HTTP/1.1\r\n" + malformed)
            #expect(plain.hasPrefix("HTTP/1.1 400"))
            #expect(scoped.hasPrefix("HTTP/1.1 400"))
        }
        #expect(test.logs.entries(at: .error).isEmpty)
    }
}
