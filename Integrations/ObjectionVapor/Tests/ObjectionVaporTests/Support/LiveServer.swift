import AsyncHTTPClient
import NIOCore
import NIOPosix
import Vapor

extension Application {
    /// Boots the application and starts its HTTP server on an ephemeral loopback port, which it
    /// returns.
    func startLive() async throws -> Int {
        http.server.configuration.hostname = "127.0.0.1"
        http.server.configuration.port = 0
        try await asyncBoot()
        try await server.start(address: nil)
        guard let port = http.server.shared.localAddress?.port else { throw Abort(.internalServerError) }
        return port
    }
}

/// Runs `body` with an HTTP client that may open `connections` connections to one host at once,
/// and shuts the client down after.
func withHTTPClient<T>(connections: Int = 8, _ body: (HTTPClient) async throws -> T) async throws -> T {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(
        idleTimeout: .seconds(60),
        concurrentHTTP1ConnectionsPerHostSoftLimit: connections
    )
    let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    let result: T
    do {
        result = try await body(client)
    } catch {
        try? await client.shutdown()
        throw error
    }
    try await client.shutdown()
    return result
}

extension HTTPClient {
    /// GETs `path` on 127.0.0.1:`port` and returns the status and the body as text.
    func get(port: Int, _ path: String, headers: HTTPHeaders = [:]) async throws -> (HTTPResponseStatus, String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers = headers
        let response = try await execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response.status, String(buffer: body))
    }
}
