import GRPCCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A message codec in JSON, so that the example needs no protobuf code generation: both the
/// serializer and the deserializer of one message type.
///
/// ```swift
/// router.registerHandler(
///     forMethod: NotesMethods.getNote, deserializer: JSONCoder<NoteQuery>(), serializer: JSONCoder<Note>()
/// ) { request, context in … }
/// ```
public struct JSONCoder<Message: Codable & Sendable>: MessageSerializer, MessageDeserializer {
    /// Creates the codec.
    public init() {}

    /// Encodes `message` as JSON.
    ///
    /// - Parameter message: The message.
    /// - Returns: Its JSON bytes.
    /// - Throws: The encoder's error.
    public func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        Bytes(try JSONEncoder().encode(message))
    }

    /// Decodes a message from JSON.
    ///
    /// - Parameter serializedMessageBytes: The JSON bytes.
    /// - Returns: The message.
    /// - Throws: `RPCError(code: .invalidArgument)` for bytes that are not such a message.
    public func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        do {
            return try JSONDecoder().decode(Message.self, from: serializedMessageBytes.withUnsafeBytes { Data($0) })
        } catch {
            throw RPCError(code: .invalidArgument, message: "Not a \(Message.self) message")
        }
    }
}
