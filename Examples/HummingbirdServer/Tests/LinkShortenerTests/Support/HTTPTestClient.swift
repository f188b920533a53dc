import LinkShortener
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A response as the tests see it.
struct HTTPReply: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var body: String

    /// The body decoded as JSON.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body.utf8))
    }

    /// The `X-Request-ID` response header.
    var requestID: String? { header("X-Request-ID") }

    /// The first value of the response header `name`.
    func header(_ name: String) -> String? { headers.first(name: name) }
}

/// The request methods the tests use.
enum Verb: Sendable {
    case get, post

    var method: HTTPMethod {
        switch self {
        case .get: .GET
        case .post: .POST
        }
    }
}

/// A minimal HTTP/1.1 client over a real loopback socket: one connection per request, closed after
/// the response. Built on SwiftNIO, which the server already uses, so that the tests need no
/// HTTP client package.
enum HTTPTestClient {
    struct ConnectionClosedEarly: Error {}

    /// Sends one request to `127.0.0.1:port` and reads the whole response. With `holdingBody`, a
    /// slow client: the head goes first, the body once `holdingBody` returns.
    static func send(
        _ verb: Verb,
        _ path: String,
        port: Int,
        headers: [(String, String)] = [],
        body: String? = nil,
        holdingBody: (@Sendable () async -> Void)? = nil
    ) async throws -> HTTPReply {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel
                    )
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: verb.method, uri: path)
            head.headers.add(name: "Host", value: "127.0.0.1:\(port)")
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            if let body {
                head.headers.add(name: "Content-Type", value: "application/json")
                head.headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            }
            // One write for the whole request: a server that answers and closes as soon as it has the
            // head (as one shutting down does) must not find a part of the request still to be sent.
            var parts: [HTTPClientRequestPart] = [.head(head)]
            if let holdingBody {
                try await outbound.write(contentsOf: parts)
                parts = []
                await holdingBody()
            }
            if let body { parts.append(.body(.byteBuffer(ByteBuffer(string: body)))) }
            parts.append(.end(nil))
            try await outbound.write(contentsOf: parts)

            var reply = HTTPReply(status: 0, headers: [:], body: "")
            var collected = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let head):
                    reply.status = Int(head.status.code)
                    reply.headers = head.headers
                case .body(var buffer):
                    collected.writeBuffer(&buffer)
                case .end:
                    reply.body = String(buffer: collected)
                    return reply
                }
            }
            throw ConnectionClosedEarly()
        }
    }
}

extension CreateLinkRequest {
    /// The body as JSON, escaped by the encoder: also right for URLs with quotes, line breaks or
    /// control characters.
    func json() throws -> String {
        String(decoding: try JSONEncoder().encode(self), as: UTF8.self)
    }
}
