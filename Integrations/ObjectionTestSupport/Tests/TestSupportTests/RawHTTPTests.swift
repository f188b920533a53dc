import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("rawHTTPExchange", .timeLimit(.minutes(1)))
struct RawHTTPTests {
    @Test("Sends the text as is and returns what the server wrote until it closed")
    func exchange() async throws {
        let listener = try #require(LoopbackListener())
        let served = Task.detached {
            listener.serveOnce(reply: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        }
        let reply = rawHTTPExchange(port: listener.port, "GET /work HTTP/1.1\r\nHost x\r\n\r\n")
        #expect(reply == "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        #expect(await served.value == "GET /work HTTP/1.1\r\nHost x\r\n\r\n")
    }

    @Test("Returns nothing when nothing listens")
    func nothingListens() throws {
        let port = try #require(LoopbackListener()).closedPort()
        #expect(rawHTTPExchange(port: port, "GET / HTTP/1.1\r\n\r\n") == "")
    }
}

/// A listening socket on an ephemeral loopback port that answers one connection.
private struct LoopbackListener: Sendable {
    let descriptor: Int32
    let port: Int

    init?() {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Accepts one connection, reads the request head, writes `reply`, closes; returns the head.
    func serveOnce(reply: String) -> String {
        defer { close(descriptor) }
        let connection = accept(descriptor, nil, nil)
        guard connection >= 0 else { return "" }
        defer { close(connection) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !received.ends(with: Array("\r\n\r\n".utf8)) {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        _ = reply.withCString { send(connection, $0, strlen($0), 0) }
        return String(decoding: received, as: UTF8.self)
    }

    /// Closes the socket and returns its port, where nothing listens any more.
    func closedPort() -> Int {
        close(descriptor)
        return port
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
