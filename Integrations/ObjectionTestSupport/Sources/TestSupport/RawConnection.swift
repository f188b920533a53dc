#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection to 127.0.0.1 that sends bytes and then closes without reading the answer, as
/// a client that leaves mid-response does (a browser navigating away, a cancelled download).
///
/// ```swift
/// let connection = try RawConnection(port: port)
/// try connection.send("GET /export HTTP/1.1\r\nHost: localhost\r\n\r\n")
/// await gate.waitForArrivals(1)   // the server is streaming its answer
/// connection.close()
/// ```
public struct RawConnection: Sendable {
    /// The connection could not be made, or the bytes not sent.
    public struct Failed: Error {}

    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`.
    ///
    /// - Throws: ``Failed`` if nothing accepts the connection.
    public init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failed() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let descriptor = descriptor
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            #if canImport(Glibc)
                _ = Glibc.close(descriptor)
            #else
                _ = Darwin.close(descriptor)
            #endif
            throw Failed()
        }
    }

    /// Sends `text`, as UTF-8.
    ///
    /// - Throws: ``Failed`` if not all of it was sent.
    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { buffer in
            #if canImport(Glibc)
                Glibc.send(descriptor, buffer.baseAddress, buffer.count, 0)
            #else
                Darwin.send(descriptor, buffer.baseAddress, buffer.count, 0)
            #endif
        }
        guard sent == bytes.count else { throw Failed() }
    }

    /// Closes the connection.
    public func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
