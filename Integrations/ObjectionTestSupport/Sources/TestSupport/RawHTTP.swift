#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends `text` as is to 127.0.0.1:`port` and returns what the server wrote until it closed the
/// connection, or read nothing for 5 seconds: a client that can send what no HTTP client would,
/// such as a malformed request head.
///
/// ```swift
/// let reply = rawHTTPExchange(port: port, "GET /work HTTP/1.1\r\nHost x\r\n\r\n")
/// #expect(reply.hasPrefix("HTTP/1.1 400"))
/// ```
///
/// - Parameters:
///   - port: The loopback port the server listens on.
///   - text: The bytes to send, as UTF-8.
/// - Returns: What the server answered, decoded as UTF-8; empty if nothing could connect.
public func rawHTTPExchange(port: Int, _ text: String) -> String {
    #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else { return "" }
    _ = text.withCString { send(descriptor, $0, strlen($0), 0) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
}
