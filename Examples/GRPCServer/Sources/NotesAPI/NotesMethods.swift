import GRPCCore

/// The methods of the `objection.examples.Notes` service, and of its hand-wired twin
/// `objection.examples.PlainNotes`, as generated code would declare them.
///
/// ```swift
/// try await client.unary(
///     request: ClientRequest(message: NoteQuery(id: 1)), descriptor: NotesMethods.getNote,
///     serializer: JSONCoder<NoteQuery>(), deserializer: JSONCoder<Note>(), options: .defaults
/// ) { try $0.message }
/// ```
public enum NotesMethods {
    /// The service served in a scope per RPC.
    public static let service = ServiceDescriptor(package: "objection.examples", service: "Notes")
    /// The twin, served without the injector: the load test's baseline.
    public static let plainService = ServiceDescriptor(package: "objection.examples", service: "PlainNotes")

    /// Unary: stores a ``NewNote``, answers the ``Note``.
    public static let addNote = MethodDescriptor(service: service, method: "AddNote", type: .unary)
    /// Unary: answers the ``Note`` a ``NoteQuery`` names, or `notFound`.
    public static let getNote = MethodDescriptor(service: service, method: "GetNote", type: .unary)
    /// Server-streaming: one ``Note`` message per stored note a ``NoteListing`` selects.
    public static let listNotes = MethodDescriptor(service: service, method: "ListNotes", type: .serverStreaming)
    /// Unary: `GetNote`'s work, with the objects built by hand.
    public static let plainGetNote = MethodDescriptor(service: plainService, method: "GetNote", type: .unary)
}
