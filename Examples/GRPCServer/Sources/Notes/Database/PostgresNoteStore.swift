import Logging
import NotesAPI
import PostgresNIO

/// A ``NoteStore`` on one PostgreSQL connection: the RPC's transaction.
///
/// Scoped: each transaction scope builds one from the `PostgresConnection` and `Logger` it binds
/// as its values, so that every query of the RPC runs in that transaction. The hand-wired twin
/// builds one by hand on the connection its own `withTransaction` lends.
struct PostgresNoteStore: NoteStore {
    /// The `INSERT` returned no row, which PostgreSQL never does for `RETURNING`.
    struct NoRowReturned: Error {}

    let connection: PostgresConnection
    let logger: Logger

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    func insert(text: String, requestID: String) async throws -> Note {
        let rows = try await connection.query(
            "INSERT INTO notes (text, request_id) VALUES (\(text), \(requestID)) RETURNING id", logger: logger
        ).collect()
        guard let row = rows.first else { throw NoRowReturned() }
        return Note(id: try row.decode(Int64.self), text: text, requestID: requestID)
    }

    func find(id: Int64) async throws -> Note? {
        let rows = try await connection.query(
            "SELECT id, text, request_id FROM notes WHERE id = \(id)", logger: logger
        ).collect()
        guard let row = rows.first else { return nil }
        let (id, text, requestID) = try row.decode((Int64, String, String).self)
        return Note(id: id, text: text, requestID: requestID)
    }

    func list(afterID: Int64, limit: Int, _ each: (Note) async throws -> Void) async throws {
        // Rows arrive as the client reads them: postgres-nio's row sequence asks for more only
        // when it is drained, so a slow reader holds the query back rather than filling memory.
        let rows = try await connection.query(
            "SELECT id, text, request_id FROM notes WHERE id > \(afterID) ORDER BY id LIMIT \(limit)", logger: logger)
        for try await row in rows {
            let (id, text, requestID) = try row.decode((Int64, String, String).self)
            try await each(Note(id: id, text: text, requestID: requestID))
        }
    }
}
