import Logging
import Objection
import ObjectionVapor
import Vapor

/// The API, with dependencies from the request scope:
///
/// - `POST /accounts` with `{"owner": "…", "balance": 100}` opens an account; `201`.
/// - `GET /accounts/:id` returns the account; `404` for an unknown one.
/// - `POST /transfers` with `{"from": 1, "to": 2, "amount": 30}` moves money; `201`; `404` for an
///   unknown account and `409` for too little money, nothing changed.
///
/// Each needs `Authorization: Bearer <name>` and echoes the request id and teller in its body.
/// Each request gets a request scope from `ObjectionScopeMiddleware.scoped`, with its id, teller
/// and logger as values, and, in the handler, a transaction scope inside it (`req.withTransaction`).
enum AccountRoutes {
    static func add(to routes: any RoutesBuilder, injector: InjectorActor, config: AppConfig) {
        // Each handler opens its request scope itself (`scoped`), in its own task: as a middleware,
        // the scope would cost every request one more task (Vapor runs each `AsyncMiddleware` in
        // one), about 4 % of this route's throughput.
        let scopes = scopeMiddleware(injector)

        routes.post(
            "accounts",
            use: scopes.scoped { req async throws -> Response in
                // Vapor has collected the body before the handler runs: no connection waits for it.
                let body = try req.content.decode(OpenAccountRequest.self)
                guard (1...200).contains(body.owner.count), (0...config.maxAmount).contains(body.balance) else {
                    throw Abort(
                        .badRequest,
                        reason: "Expected an owner of 1 to 200 characters and a balance of 0 to \(config.maxAmount)")
                }
                let account = try await req.withTransaction { scope in
                    let service = try await scope.get(LedgerService.self)
                    let account = try await service.open(owner: body.owner, balance: body.balance)
                    return AccountResponse(account, requestID: service.requestID, teller: service.teller)
                }
                return try await account.encodeResponse(status: .created, for: req)
            })

        routes.get(
            "accounts", ":id",
            use: scopes.scoped { req async throws -> AccountResponse in
                let id = try accountID(of: req)
                return try await req.withTransaction { scope in
                    let service = try await scope.get(LedgerService.self)
                    guard let account = try await service.account(id: id) else {
                        throw Abort(.notFound, reason: "No account \(id)")
                    }
                    return AccountResponse(account, requestID: service.requestID, teller: service.teller)
                }
            })

        routes.post(
            "transfers",
            use: scopes.scoped { req async throws -> Response in
                let body = try req.content.decode(TransferRequest.self)
                guard body.from != body.to, (1...config.maxAmount).contains(body.amount) else {
                    throw Abort(.badRequest, reason: "Expected two accounts and an amount of 1 to \(config.maxAmount)")
                }
                let transfer = try await req.withTransaction { scope in
                    let service = try await scope.get(LedgerService.self)
                    let transfer = try await service.transfer(body.amount, from: body.from, to: body.to)
                    return TransferResponse(transfer, requestID: service.requestID, teller: service.teller)
                }
                return try await transfer.encodeResponse(status: .created, for: req)
            })
    }

    /// Opens the request scope: authenticates the request (`401` before any scope opens) and binds
    /// its teller and logger as the scope's values, after the `RequestIdentifier` the middleware
    /// binds itself; the root declares them with `suppliedByScope()`.
    static func scopeMiddleware(_ injector: InjectorActor) -> ObjectionScopeMiddleware {
        ObjectionScopeMiddleware(injector) { req, values in
            values.bind(Teller.self, to: try TellerAuthentication.teller(of: req))
            values.bind(Logger.self, to: req.logger)
        }
    }

    /// The `:id` parameter; `404` when it is no account number.
    static func accountID(of req: Request) throws -> Int64 {
        guard let id = req.parameters.get("id", as: Int64.self) else {
            throw Abort(.notFound, reason: "No account \(req.parameters.get("id") ?? "")")
        }
        return id
    }
}
