import Synchronization
import Testing
import Vapor

@testable import ObjectionVapor

/// What a kept body's writer holds back: the last buffer of a body of known length, which would
/// complete the response before its scope ended; nothing of a chunked one, whose writes then fail
/// as soon as the client has gone, failing the stream and its scope.
@Suite("A kept body's writer")
struct HoldingWriterTests {
    struct ClientGone: Error {}

    /// A writer whose client has gone: every write fails, as Vapor's once the response's head
    /// could not be written.
    final class GoneWriter: AsyncBodyStreamWriter {
        let attempts = Mutex(0)
        func write(_ result: BodyStreamResult) async throws {
            attempts.withLock { $0 += 1 }
            throw ClientGone()
        }
    }

    @Test("a chunked body's buffer goes out as written, so a write to a client that has gone fails the stream")
    func chunkedWritesThrough() async throws {
        let base = GoneWriter()
        let writer = HoldingWriter(base: base, holdsLast: false)
        await #expect(throws: ClientGone.self) { try await writer.write(.buffer(ByteBuffer(string: "late"))) }
        #expect(base.attempts.withLock { $0 } == 1)
    }

    @Test("a body of known length holds its last buffer back until the scope has ended")
    func knownLengthHoldsTheLast() async throws {
        let base = GoneWriter()
        let writer = HoldingWriter(base: base, holdsLast: true)
        try await writer.write(.buffer(ByteBuffer(string: "last")))
        #expect(base.attempts.withLock { $0 } == 0)
        await #expect(throws: ClientGone.self) { try await writer.flush() }
    }
}
