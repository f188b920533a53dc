import GRPCCore

/// A typed client of the notes service over any grpc-swift client: what protoc would generate.
///
/// ```swift
/// try await withGRPCClient(
///     transport: .http2NIOPosix(target: .ipv4(address: "127.0.0.1", port: 50051), transportSecurity: .plaintext)
/// ) { client in
///     let notes = NotesClient(wrapping: client)
///     let note = try await notes.addNote(NewNote(text: "buy oat milk"), metadata: ["x-request-id": "demo-1"])
///     for note in try await notes.listNotes(NoteListing()) { print(note.id, note.text) }
/// }
/// ```
///
/// Each method takes the request message, its metadata and call options, and a closure that
/// receives the whole response, metadata included; by default it answers the message (or, for
/// `ListNotes`, every message).
public struct NotesClient<Transport: ClientTransport>: Sendable {
    /// The grpc-swift client the calls go through.
    public let client: GRPCClient<Transport>

    /// Wraps `client`, which must be running (`withGRPCClient`, or `runConnections()`).
    ///
    /// - Parameter client: The grpc-swift client.
    public init(wrapping client: GRPCClient<Transport>) {
        self.client = client
    }

    /// Calls `AddNote`: stores the note, in a transaction of its own.
    ///
    /// - Parameters:
    ///   - message: The note to store.
    ///   - metadata: The request's metadata, `x-request-id` among them.
    ///   - options: The call's options.
    ///   - handleResponse: Reads the response; by default answers the stored ``Note``.
    /// - Returns: What `handleResponse` returns.
    /// - Throws: The `RPCError` the server answered, or the transport's.
    public func addNote<Result: Sendable>(
        _ message: NewNote,
        metadata: Metadata = [:],
        options: CallOptions = .defaults,
        onResponse handleResponse: @Sendable @escaping (ClientResponse<Note>) async throws -> Result = {
            try $0.message
        }
    ) async throws -> Result {
        try await unary(message, NotesMethods.addNote, metadata: metadata, options: options, handleResponse)
    }

    /// Calls `GetNote`: the note, or `RPCError(code: .notFound)`.
    ///
    /// - Parameters:
    ///   - message: Which note.
    ///   - metadata: The request's metadata.
    ///   - options: The call's options.
    ///   - handleResponse: Reads the response; by default answers the ``Note``.
    /// - Returns: What `handleResponse` returns.
    /// - Throws: The `RPCError` the server answered, or the transport's.
    public func getNote<Result: Sendable>(
        _ message: NoteQuery,
        metadata: Metadata = [:],
        options: CallOptions = .defaults,
        onResponse handleResponse: @Sendable @escaping (ClientResponse<Note>) async throws -> Result = {
            try $0.message
        }
    ) async throws -> Result {
        try await unary(message, NotesMethods.getNote, metadata: metadata, options: options, handleResponse)
    }

    /// Calls `ListNotes`: one message per note, in order of id.
    ///
    /// - Parameters:
    ///   - message: Which notes.
    ///   - metadata: The request's metadata.
    ///   - options: The call's options.
    ///   - handleResponse: Reads the stream; by default collects every ``Note``.
    /// - Returns: What `handleResponse` returns.
    /// - Throws: The `RPCError` the server answered (also after some messages), or the transport's.
    public func listNotes<Result: Sendable>(
        _ message: NoteListing,
        metadata: Metadata = [:],
        options: CallOptions = .defaults,
        onResponse handleResponse: @Sendable @escaping (StreamingClientResponse<Note>) async throws -> Result = {
            response in
            var notes: [Note] = []
            for try await note in response.messages { notes.append(note) }
            return notes
        }
    ) async throws -> Result {
        try await client.serverStreaming(
            request: ClientRequest(message: message, metadata: metadata), descriptor: NotesMethods.listNotes,
            serializer: JSONCoder<NoteListing>(), deserializer: JSONCoder<Note>(), options: options,
            onResponse: handleResponse)
    }

    /// Calls the hand-wired twin of `GetNote`: the same answer, served without the injector.
    ///
    /// - Parameters:
    ///   - message: Which note.
    ///   - metadata: The request's metadata.
    ///   - options: The call's options.
    ///   - handleResponse: Reads the response; by default answers the ``Note``.
    /// - Returns: What `handleResponse` returns.
    /// - Throws: The `RPCError` the server answered, or the transport's.
    public func plainGetNote<Result: Sendable>(
        _ message: NoteQuery,
        metadata: Metadata = [:],
        options: CallOptions = .defaults,
        onResponse handleResponse: @Sendable @escaping (ClientResponse<Note>) async throws -> Result = {
            try $0.message
        }
    ) async throws -> Result {
        try await unary(message, NotesMethods.plainGetNote, metadata: metadata, options: options, handleResponse)
    }

    /// A unary call of `method` with JSON-coded messages: what the unary methods above share.
    private func unary<Request: Codable & Sendable, Result: Sendable>(
        _ message: Request,
        _ method: MethodDescriptor,
        metadata: Metadata,
        options: CallOptions,
        _ handleResponse: @Sendable @escaping (ClientResponse<Note>) async throws -> Result
    ) async throws -> Result {
        try await client.unary(
            request: ClientRequest(message: message, metadata: metadata), descriptor: method,
            serializer: JSONCoder<Request>(), deserializer: JSONCoder<Note>(), options: options,
            onResponse: handleResponse)
    }
}
