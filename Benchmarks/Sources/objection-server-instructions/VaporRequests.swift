import Logging
import NIOCore
import ObjectionVapor
import Vapor

/// `GET /links/:code` through Vapor's responder and `ObjectionScopeMiddleware` (as a middleware, or
/// wrapping the handler with `scoped(_:)`, as the Vapor example does), and its twin
/// `GET /plain/:code` (a path of the same depth), wired by hand — in process, as Vapor's in-memory
/// testing sends a request: straight to the application's responder, its body collected.
struct VaporRequests: RequestPath {
    private let app: Application
    private let path: String

    static func make(route: ServerPath.Route, fixture: LinkFixture) async throws -> VaporRequests {
        let app = try await Application.make(.testing)
        app.logger.logLevel = .critical
        let scopes = ObjectionScopeMiddleware(fixture.injector) { request, values in
            guard let user = User(authorization: request.headers.first(name: .authorization)) else {
                throw Abort(.unauthorized)
            }
            values.bind(User.self, to: user)
            values.bind(Logger.self, to: request.logger)
        }
        let handler: @Sendable (Request) async throws -> String = { request in
            guard let code = request.parameters.get("code"), let scope = request.requestScope,
                let link = try await LinkLookup.scoped(code, in: scope)
            else { throw Abort(.notFound) }
            return link.url
        }
        if route == .handler {
            // The form the Vapor example uses: the handler opens the scope, without the task
            // Vapor runs each AsyncMiddleware in.
            app.get("links", ":code", use: scopes.scoped(handler))
        } else if route == .scoped {
            app.grouped(scopes).get("links", ":code", use: handler)
        } else if route == .opened {
            // The scope opened and ended, nothing built in it: the glue's cost.
            app.grouped(scopes).get("links", ":code") { request async throws -> String in
                guard let code = request.parameters.get("code"), let scope = request.requestScope,
                    let link = try await LinkLookup.handWired(
                        code, requestID: RequestIdentifier(request.id), user: try await scope.get(User.self),
                        logger: request.logger, table: fixture.table, auditLog: fixture.auditLog)
                else { throw Abort(.notFound) }
                return link.url
            }
        } else {
            app.get("plain", ":code") { request async throws -> String in
                guard let user = User(authorization: request.headers.first(name: .authorization)) else {
                    throw Abort(.unauthorized)
                }
                guard let code = request.parameters.get("code"),
                    let link = try await LinkLookup.handWired(
                        code, requestID: RequestIdentifier(request.id), user: user, logger: request.logger,
                        table: fixture.table, auditLog: fixture.auditLog)
                else { throw Abort(.notFound) }
                return link.url
            }
        }
        try await app.asyncBoot()
        return VaporRequests(app: app, path: route == .twin ? "/plain/\(fixture.code)" : "/links/\(fixture.code)")
    }

    func run() async throws -> String {
        let request = Request(
            application: app,
            method: .GET,
            url: URI(path: path),
            headers: ["Authorization": "Bearer ada", "X-Request-Id": "req-1"],
            collectedBody: nil,
            remoteAddress: nil,
            logger: app.logger,
            on: app.eventLoopGroup.next()
        )
        let response = try await app.responder.respond(to: request).get()
        let body = try await response.body.collect(on: request.eventLoop).get()
        return body.map { String(buffer: $0) } ?? ""
    }

    func shutdown() async throws {
        try await app.asyncShutdown()
    }
}
