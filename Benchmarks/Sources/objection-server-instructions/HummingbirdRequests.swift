import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import ObjectionHummingbird
import Synchronization

/// `GET /links/:code` through Hummingbird's router and `ObjectionScopeMiddleware`, and its twin
/// `GET /plain/:code`, wired by hand — as in the Hummingbird example, in process: each request is
/// handed to the router's responder with a context on an embedded channel, and its response body
/// written out. Two routes more split the scoped route's cost into parts
/// (``ServerPath/Route/opened``, ``ServerPath/Route/unnested``).
struct HummingbirdRequests: RequestPath {
    private let responder: RouterResponder<BasicInjectingRequestContext>
    private let request: Request
    private let channel = EmbeddedChannel()
    private let logger = Logger(label: "requests", factory: { _ in SwiftLogNoOpLogHandler() })

    init(route: ServerPath.Route, fixture: LinkFixture) {
        let router = Router(context: BasicInjectingRequestContext.self)
        if route == .twin {
            Self.addTwin(to: router, fixture: fixture)
        } else {
            Self.addScoped(route, to: router, fixture: fixture)
        }
        responder = router.buildResponder()
        request = Request(
            head: HTTPRequest(
                method: .get,
                scheme: "http",
                authority: "localhost",
                // Paths of the same depth: the router's work is the same for both.
                path: route == .twin ? "/plain/\(fixture.code)" : "/links/\(fixture.code)",
                headerFields: HTTPFields(
                    [
                        HTTPField(name: .authorization, value: "Bearer ada"),
                        HTTPField.Name.requestID.map { HTTPField(name: $0, value: "req-1") },
                    ].compactMap { $0 })
            ),
            body: RequestBody(buffer: ByteBuffer())
        )
    }

    func run() async throws -> String {
        let context = BasicInjectingRequestContext(source: .init(channel: channel, logger: logger))
        let response = try await responder.respond(to: request, context: context)
        let writer = CollectingBodyWriter()
        let collected = writer.collected
        try await response.body.write(writer)
        return collected.text
    }

    /// The scoped route, or one of the routes that split its cost.
    private static func addScoped(
        _ route: ServerPath.Route,
        to router: Router<BasicInjectingRequestContext>,
        fixture: LinkFixture
    ) {
        // Decided here, not per request: `==` on an enum with raw values compares its strings.
        let bindsTransaction = route == .unnested
        let links = router.group("links")
            .add(
                middleware: ObjectionScopeMiddleware(fixture.injector) { request, context, values in
                    guard let user = User(authorization: request.headers[.authorization]) else {
                        throw HTTPError(.unauthorized)
                    }
                    if let id = context.requestID { values.bind(RequestIdentifier.self, to: id) }
                    values.bind(User.self, to: user)
                    values.bind(Logger.self, to: context.logger)
                    if bindsTransaction {
                        values.bind(LinkTransaction.self, to: LinkTransaction(table: fixture.table))
                    }
                }
            )
        switch route {
        case .opened:
            // The scope is opened and ended, and nothing built in it (the user is one of its
            // values, read where the twin reads its header): the glue's cost.
            links.get(":code") { _, context in
                guard let scope = context.requestScope.injector,
                    let link = try await LinkLookup.handWired(
                        try context.parameters.require("code"),
                        requestID: context.requestID ?? RequestIdentifier("none"),
                        user: try await scope.get(User.self),
                        logger: context.logger, table: fixture.table, auditLog: fixture.auditLog)
                else { throw HTTPError(.notFound) }
                return link.url
            }
        case .unnested:
            // Resolved in the request scope itself, without a transaction scope; the audit
            // trail is disposed when the request scope ends.
            links.get(":code") { _, context in
                let code = try context.parameters.require("code")
                guard let scope = context.requestScope.injector,
                    let link = try await fixture.table.withTransaction({ _ in
                        try await scope.get(LinkService.self).resolve(code)
                    })
                else { throw HTTPError(.notFound) }
                return link.url
            }
        default:
            links.get(":code") { _, context in
                let code = try context.parameters.require("code")
                guard let scope = context.requestScope.injector,
                    let link = try await LinkLookup.scoped(code, in: scope)
                else { throw HTTPError(.notFound) }
                return link.url
            }
        }
    }

    /// The twin: what the scope middleware does for the scoped route — the request's id, checked,
    /// in the logger's metadata and in the response — and the work, by hand.
    private static func addTwin(to router: Router<BasicInjectingRequestContext>, fixture: LinkFixture) {
        router.get("plain/:code") { request, context in
            guard let user = User(authorization: request.headers[.authorization]) else {
                throw HTTPError(.unauthorized)
            }
            let sent = HTTPField.Name.requestID.flatMap { request.headers[$0] }
            let id = RequestIdentifier(sent.flatMap { RequestIdentifier.isWellFormed($0) ? $0 : nil } ?? "generated")
            var logger = context.logger
            logger[metadataKey: "request-id"] = .string(id.value)
            let code = try context.parameters.require("code")
            guard
                let link = try await LinkLookup.handWired(
                    code, requestID: id, user: user, logger: logger, table: fixture.table,
                    auditLog: fixture.auditLog)
            else { throw HTTPError(.notFound) }
            var response = link.url.response(from: request, context: context)
            if let name = HTTPField.Name.requestID { response.headers[name] = id.value }
            return response
        }
    }
}

extension HTTPField.Name {
    fileprivate static let requestID = HTTPField.Name("X-Request-ID")
}

/// Writes a response's body into a buffer, read once it is written.
private struct CollectingBodyWriter: ResponseBodyWriter {
    final class Collected: Sendable {
        private let buffer = Mutex(ByteBuffer())

        func append(_ part: ByteBuffer) {
            buffer.withLock { _ = $0.writeImmutableBuffer(part) }
        }

        var text: String { buffer.withLock { String(buffer: $0) } }
    }

    let collected = Collected()

    mutating func write(_ buffer: ByteBuffer) async throws {
        collected.append(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
