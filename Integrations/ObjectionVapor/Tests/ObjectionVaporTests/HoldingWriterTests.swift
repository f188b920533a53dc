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

    /// A writer that records the size of each buffer written.
    final class RecordingWriter: AsyncBodyStreamWriter {
        let sizes = Mutex<[Int]>([])
        func write(_ result: BodyStreamResult) async throws {
            if case .buffer(let buffer) = result { sizes.withLock { $0.append(buffer.readableBytes) } }
        }
    }

    /// A writer whose client leaves after its first write, while the stream waits: the next
    /// write fails, as Vapor's does once the server has seen the connection close.
    final class LeavesAfterOneWrite: AsyncBodyStreamWriter {
        let writes = Mutex(0)
        func write(_ result: BodyStreamResult) async throws {
            let count = writes.withLock { count in
                count += 1
                return count
            }
            guard count == 1 else { throw ClientGone() }
        }
    }

    @Test("a chunked body whose client left while it waited, and which then only finishes, fails its commit")
    func confirmsAfterAnIdleWait() async throws {
        let writer = HoldingWriter(base: LeavesAfterOneWrite(), holdsLast: false)
        try await writer.write(.buffer(ByteBuffer(string: "event")))
        await #expect(throws: ClientGone.self) { try await writer.confirmWritable() }
    }

    @Test("a kept body asks its writer, with an empty buffer, before its scope commits, whatever it has sent")
    func confirmsAWritableResponse() async throws {
        let gone = HoldingWriter(base: GoneWriter(), holdsLast: true)
        try await gone.write(.buffer(ByteBuffer(string: "only")))
        await #expect(throws: ClientGone.self) { try await gone.confirmWritable() }

        let base = RecordingWriter()
        let single = HoldingWriter(base: base, holdsLast: true)
        try await single.write(.buffer(ByteBuffer(string: "only")))
        try await single.confirmWritable()
        #expect(base.sizes.withLock { $0 } == [0])

        // A chunked body that wrote nothing asks too (NIO frames no empty chunk).
        let silent = RecordingWriter()
        try await HoldingWriter(base: silent, holdsLast: false).confirmWritable()
        #expect(silent.sizes.withLock { $0 } == [0])

        let sent = RecordingWriter()
        let two = HoldingWriter(base: sent, holdsLast: true)
        try await two.write(.buffer(ByteBuffer(string: "one")))
        try await two.write(.buffer(ByteBuffer(string: "two")))
        try await two.confirmWritable()
        try await two.flush()
        #expect(sent.sizes.withLock { $0 } == [3, 0, 3])
    }
}
