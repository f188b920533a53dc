import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix

/// Runs `body` with an HTTP client that may open `connections` connections to one host at once,
/// and shuts the client down after.
func withHTTPClient<T>(connections: Int = 8, _ body: (HTTPClient) async throws -> T) async throws -> T {
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(
        idleTimeout: .seconds(60),
        concurrentHTTP1ConnectionsPerHostSoftLimit: connections
    )
    let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    let result: Result<T, any Error>
    do {
        result = .success(try await body(client))
    } catch {
        result = .failure(error)
    }
    try await client.shutdown()
    return try result.get()
}

extension HTTPClient {
    /// GETs `path` on 127.0.0.1:`port` and returns the status and the body as text.
    func get(port: Int, _ path: String) async throws -> (status: Int, text: String) {
        let response = try await execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: body))
    }
}
