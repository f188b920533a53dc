import Logging
import Objection

/// The scoped routes' bindings, shaped as the Hummingbird example's `AppModule`: the table and the
/// audit log are singletons; the request's id, user and logger are supplied by the request scope,
/// the transaction by the transaction scope nested in it; the store and the audit trail are one
/// per transaction scope; the service is new for each `get`.
struct RequestModule: Module {
    let table: LinkTable
    let auditLog: AuditLog

    func configure(_ binder: Binder) {
        binder.bind(LinkTable.self).toInstance(table)
        binder.bind(AuditLog.self).toInstance(auditLog)
        binder.bind(RequestIdentifier.self).suppliedByScope()
        binder.bind(User.self).suppliedByScope()
        binder.bind(Logger.self).suppliedByScope()
        binder.bind(LinkTransaction.self).suppliedByScope()
        binder.bind(TransactionStore.self).to(TransactionStore.init).inScope(.scoped)
        binder.bind(RequestAudit.self).to(RequestAudit.init).inScope(.scoped)
        binder.bind(LinkService.self).to(LinkService.init)
    }
}

/// What a route does once it has its request's values: the transaction, its objects, the lookup
/// and the audit's flush before the commit — from a scope, or by hand.
enum LinkLookup {
    /// In a transaction scope nested in `requestScope`, as the example's `withTransaction` does.
    nonisolated(nonsending) static func scoped(_ code: String, in requestScope: InjectorActor) async throws -> Link? {
        let table = try await requestScope.get(LinkTable.self)
        return try await requestScope.withScope(
            around: { enter in
                try await table.withTransaction { transaction in
                    try await enter { $0.bind(LinkTransaction.self, to: transaction) }
                }
            },
            { scope in try await scope.get(LinkService.self).resolve(code) }
        )
    }

    /// The same work wired by hand: the twin's, as the example's `HandWiredLinks`.
    nonisolated(nonsending) static func handWired(
        _ code: String,
        requestID: RequestIdentifier,
        user: User,
        logger: Logger,
        table: LinkTable,
        auditLog: AuditLog
    ) async throws -> Link? {
        try await table.withTransaction { transaction in
            let audit = RequestAudit(requestID: requestID, sink: auditLog)
            let service = LinkService(
                requestID: requestID,
                user: user,
                store: TransactionStore(transaction: transaction),
                audit: audit,
                logger: logger
            )
            let link = service.resolve(code)
            try await audit.dispose()
            return link
        }
    }
}
