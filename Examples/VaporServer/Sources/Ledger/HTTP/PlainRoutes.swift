import Objection
import ObjectionVapor
import PostgresNIO
import Vapor

/// The baseline for measuring the injector's cost: the same work as `GET /accounts/:id`, on the
/// same database, with the per-request objects built by hand and no scope.
///
/// - `GET /plain/accounts/:id`: like `GET /accounts/:id`.
/// - `GET /stats`: the singletons' counters and the accounts open, as ``StatsResponse`` (no
///   authentication).
enum PlainRoutes {
    static func add(to routes: any RoutesBuilder, singletons lazySingletons: LazySingletons) {
        routes.get("plain", "accounts", ":id") { req async throws -> AccountResponse in
            let teller = try TellerAuthentication.teller(of: req)
            let requestID = RequestIdentifier(req.id)
            let id = try AccountRoutes.accountID(of: req)
            let singletons = try await lazySingletons.get()
            let logger = req.logger
            // What the transaction scope does for the other routes, by hand. postgres-nio wraps
            // an error of the closure in a PostgresTransactionError: a 500 here, whatever it was.
            let account = try await singletons.database.client.withTransaction(logger: logger) { connection in
                let journal = RequestJournal(requestID: requestID, teller: teller, journal: singletons.journal)
                let service = LedgerService(
                    requestID: requestID,
                    teller: teller,
                    store: PostgresAccountStore(connection: connection, logger: logger),
                    journal: journal
                )
                let found: Result<Account?, any Error>
                do {
                    found = .success(try await service.account(id: id))
                } catch {
                    found = .failure(error)
                }
                // What the end of the scope does, before the commit or the rollback.
                switch found {
                case .success: try await journal.dispose(after: .succeeded)
                case .failure(let error): try await journal.dispose(after: .failed(error))
                }
                return try found.get()
            }
            guard let account else { throw Abort(.notFound, reason: "No account \(id)") }
            return AccountResponse(account, requestID: requestID, teller: teller)
        }

        routes.get("stats") { req async throws -> StatsResponse in
            let singletons = try await lazySingletons.get()
            let counts = singletons.journal.counts
            return StatsResponse(
                singletonBuilds: Dictionary(singletons.lifecycle.built.map { ($0, 1) }, uniquingKeysWith: +),
                succeeded: counts.succeeded,
                failed: counts.failed,
                accounts: try await singletons.database.accountCount(logger: req.logger)
            )
        }
    }
}
