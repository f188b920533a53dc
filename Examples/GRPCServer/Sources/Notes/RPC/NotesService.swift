import GRPCCore
import NotesAPI
import Objection

/// The notes service, served in a request scope per RPC (`ObjectionScopeInterceptor`), each RPC's
/// work in a transaction scope nested in it (``RPCScope/withTransaction(_:)``).
///
/// - `AddNote` (unary): checks the text, then stores the note in a transaction.
/// - `GetNote` (unary): the note, or `notFound`.
/// - `ListNotes` (server-streaming): one message per note, written from inside the transaction as
///   the rows arrive, so the transaction scope's store serves every message, the last included,
///   and is disposed after it.
///
/// ```swift
/// GRPCServer(transport: transport, services: [NotesService()],
///            interceptors: [ObjectionScopeInterceptor(injector, logger: logger)])
/// ```
struct NotesService: RegistrableRPCService {
    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: NotesMethods.addNote, deserializer: JSONCoder<NewNote>(), serializer: JSONCoder<Note>(),
            handler: { request, _ in try await Self.addNote(request) })
        router.registerHandler(
            forMethod: NotesMethods.getNote, deserializer: JSONCoder<NoteQuery>(), serializer: JSONCoder<Note>(),
            handler: { request, _ in try await Self.getNote(request) })
        router.registerHandler(
            forMethod: NotesMethods.listNotes, deserializer: JSONCoder<NoteListing>(), serializer: JSONCoder<Note>(),
            handler: { request, _ in try await Self.listNotes(request) })
    }

    static func addNote(_ request: StreamingServerRequest<NewNote>) async throws -> StreamingServerResponse<Note> {
        // Checked before the transaction: a refused request holds no connection.
        let text = try await ServerRequest(stream: request).message.validatedText()
        let note = try await RPCScope.withTransaction { scope in
            try await scope.get(Notebook.self).add(text)
        }
        return StreamingServerResponse(single: ServerResponse(message: note))
    }

    static func getNote(_ request: StreamingServerRequest<NoteQuery>) async throws -> StreamingServerResponse<Note> {
        let query = try await ServerRequest(stream: request).message
        let note = try await RPCScope.withTransaction { scope in
            try await scope.get(Notebook.self).note(query.id)
        }
        return StreamingServerResponse(single: ServerResponse(message: note))
    }

    static func listNotes(
        _ request: StreamingServerRequest<NoteListing>
    ) async throws -> StreamingServerResponse<Note> {
        let listing = try await ServerRequest(stream: request).message.validated()
        // The transaction is opened by the producer, which grpc-swift calls after this handler
        // has returned, in the RPC's scope (the interceptor keeps it until the producer ends):
        // every message is written from inside the transaction scope, the last one included.
        return StreamingServerResponse(of: Note.self) { writer in
            try await RPCScope.withTransaction { scope in
                try await scope.get(Notebook.self).list(listing) { note in try await writer.write(note) }
            }
            return [:]
        }
    }
}
