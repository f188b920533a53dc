import GRPCCore
import Logging
import NotesAPI
import ObjectionGRPC
import PostgresNIO

/// The baseline for measuring the injector's cost: `GetNote`'s work on the same database, with the
/// per-RPC objects built by hand, no scope and its own `withTransaction`. Served without
/// `ObjectionScopeInterceptor`, so it also settles and echoes the request id itself.
///
/// ```swift
/// GRPCServer(transport: transport, services: [PlainNotesService(database: LazyDatabase(injector: injector))])
/// ```
struct PlainNotesService: RegistrableRPCService {
    let database: LazyDatabase
    /// Where errors answered as `internalError` are logged.
    let logger: Logger

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: NotesMethods.plainGetNote, deserializer: JSONCoder<NoteQuery>(), serializer: JSONCoder<Note>(),
            handler: { [self] request, _ in try await getNote(request) })
    }

    func getNote(_ request: StreamingServerRequest<NoteQuery>) async throws -> StreamingServerResponse<Note> {
        let requestID = RPCRequestID(
            adopting: request.metadata[stringValues: RPCRequestID.metadataKey].first { _ in true })
        let query = try await ServerRequest(stream: request).message
        let database = try await database.get()
        var logger = database.logger
        logger[metadataKey: "request-id"] = .string(requestID.value)
        let note: Note
        do {
            // What the transaction scope does for the scoped service, by hand.
            note = try await database.client.withTransaction(logger: logger) { connection in
                let notebook = Notebook(
                    store: PostgresNoteStore(connection: connection, logger: logger), requestID: requestID)
                return try await notebook.note(query.id)
            }
        } catch {
            throw rpcError(for: error, requestID: requestID)
        }
        return StreamingServerResponse(
            single: ServerResponse(message: note, metadata: [RPCRequestID.metadataKey: .string(requestID.value)]))
    }

    /// What the interceptor does with errors, by hand: the handler's `RPCError` as is (unwrapped
    /// from postgres-nio's `PostgresTransactionError`), anything else logged by type and answered
    /// with the opaque `internalError`.
    private func rpcError(for error: any Error, requestID: RPCRequestID) -> RPCError {
        let cause = (error as? PostgresTransactionError)?.closureError ?? error
        if let rpcError = cause as? RPCError { return rpcError }
        logger.error(
            "RPC failed; answered internalError",
            metadata: [
                "request-id": .string(requestID.value), "error.type": .string(String(reflecting: type(of: cause))),
            ])
        return RPCError(code: .internalError, message: ObjectionScopeInterceptor.internalErrorMessage)
    }
}
