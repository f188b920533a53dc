import Foundation
import Ledger
import NIOHTTP1
import PostgresTestSupport

/// A response as the tests see it.
struct Reply: Sendable {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: String

    /// The body decoded as JSON.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body.utf8))
    }
}

/// A response the test did not expect, with its body for the failure message.
struct UnexpectedReply: Error, CustomStringConvertible {
    let reply: Reply
    var description: String { "HTTP \(reply.status.code): \(reply.body)" }
}

/// A JSON body for the tests' requests.
func json(_ value: some Encodable) throws -> String {
    String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
}

extension TestServer {
    /// Opens an account through the API and returns it.
    func openAccount(owner: String, balance: Int64, teller: String = "seeder") async throws -> AccountResponse {
        let reply = try await send(
            .POST, "/accounts", teller: teller, json: try json(OpenAccountRequest(owner: owner, balance: balance)))
        guard reply.status == .created else { throw UnexpectedReply(reply: reply) }
        return try reply.decode(AccountResponse.self)
    }

    /// Asks for a transfer through the API.
    func transfer(_ amount: Int64, from: Int64, to: Int64, teller: String = "teller", requestID: String? = nil)
        async throws -> Reply
    {
        try await send(
            .POST, "/transfers", teller: teller, requestID: requestID,
            json: try json(TransferRequest(from: from, to: to, amount: amount)))
    }

    /// The `/stats` body.
    func stats() async throws -> StatsResponse {
        try await send(.GET, "/stats").decode(StatsResponse.self)
    }

    /// The committed balance of account `id`, seen from a connection of the test's own.
    func committedBalance(of id: Int64) async throws -> Int64? {
        try await TestDatabase.shared.withConnection(schema: schema) { try await $0.balance(of: id) }
    }

    /// How many accounts of `owner` are committed, seen from a connection of the test's own.
    func committedAccounts(owner: String) async throws -> Int {
        try await TestDatabase.shared.withConnection(schema: schema) { try await $0.accountCount(owner: owner) }
    }

    /// How many transfers are committed, seen from a connection of the test's own.
    func committedTransfers() async throws -> Int {
        try await TestDatabase.shared.withConnection(schema: schema) { try await $0.transferCount() }
    }
}

/// The body of Vapor's error responses.
struct ErrorBody: Decodable, Equatable {
    var error: Bool
    var reason: String

    /// The body of every opaque `500`: the status's own reason, nothing of the error.
    static let opaque = ErrorBody(error: true, reason: "Internal Server Error")
}
