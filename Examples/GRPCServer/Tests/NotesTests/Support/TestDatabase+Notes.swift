import Logging
import PostgresNIO
import PostgresTestSupport

@testable import Notes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TestDatabase {
    /// The server's settings, from the same variables as `main.swift` reads (`.ci/postgres-start`
    /// prints them); each test server changes its schema and pool. Malformed ones fail the test
    /// that starts a server, through ``TestServer``.
    static func settings() throws -> ServerSettings {
        try ServerSettings(arguments: [], environment: ProcessInfo.processInfo.environment)
    }

    /// The tests' database: schemas named `grpc_test_` and 16 hexadecimal digits, and a budget of
    /// 40 connections of the 200 the server allows, leaving room for other packages' tests run at
    /// the same time and for the tests' own connections.
    static let shared = TestDatabase(
        server: ((try? settings()) ?? ServerSettings()).database.clientConfiguration,
        applicationName: "notes-tests", schemaPrefix: "grpc_test_", connectionBudget: 40)
}

extension PostgresConnection {
    /// How many notes this connection sees with the text `text`: inside a transaction, the
    /// committed ones and the transaction's own.
    func countNotes(text: String) async throws -> Int {
        let rows = try await query("SELECT count(*) FROM notes WHERE text = \(text)", logger: TestDatabase.logger)
            .collect()
        return try rows.first?.decode(Int.self) ?? 0
    }

    /// The id of the transaction this connection is in.
    func transactionID() async throws -> Int64 {
        let rows = try await query("SELECT txid_current()", logger: TestDatabase.logger).collect()
        return try rows.first?.decode(Int64.self) ?? 0
    }
}
