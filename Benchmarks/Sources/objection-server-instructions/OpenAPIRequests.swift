import HTTPTypes
import Logging
import Objection
import ObjectionOpenAPI
import OpenAPIRuntime

/// The `getLink` operation through `ObjectionOpenAPIMiddleware`, and its twin wired by hand
/// without it: in process, each call goes to the middleware (or straight to the handler) as the
/// generated server code calls it, with the request's path parameter in its metadata.
struct OpenAPIRequests: RequestPath {
    private let route: ServerPath.Route
    private let middleware: ObjectionOpenAPIMiddleware
    private let fixture: LinkFixture
    private let request = HTTPRequest(
        method: .get,
        scheme: "http",
        authority: "localhost",
        path: "/api/links/abc",
        headerFields: [.authorization: "Bearer ada"]
    )
    private let metadata: ServerRequestMetadata
    private let logger: Logger

    init(route: ServerPath.Route, fixture: LinkFixture) {
        self.route = route
        self.fixture = fixture
        metadata = ServerRequestMetadata(pathParameters: ["code": Substring(fixture.code)])
        let logger = Logger(label: "requests", factory: { _ in SwiftLogNoOpLogHandler() })
        self.logger = logger
        middleware = ObjectionOpenAPIMiddleware(fixture.injector, logger: logger) { call, values in
            guard let user = User(authorization: call.request.headerFields[.authorization]) else {
                throw Unauthorized()
            }
            values.bind(RequestIdentifier.self, to: RequestIdentifier("req-1"))
            values.bind(User.self, to: user)
            values.bind(Logger.self, to: logger)
        }
    }

    func run() async throws -> String {
        let body: HTTPBody?
        switch route {
        case .twin:
            (_, body) = try await plainGetLink(request, nil, metadata)
        case .opened:
            (_, body) = try await middleware.intercept(
                request, body: nil, metadata: metadata, operationID: "getLink", next: openedGetLink)
        default:
            (_, body) = try await middleware.intercept(
                request, body: nil, metadata: metadata, operationID: "getLink", next: Self.scopedGetLink)
        }
        // Read to its end, as a transport writes it: the middleware ends the scope then.
        var bytes: [UInt8] = []
        if let body {
            for try await chunk in body { bytes += chunk }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The scoped operation: its objects from the request scope the middleware opened.
    @Sendable private static func scopedGetLink(
        _ request: HTTPRequest, _ body: HTTPBody?, _ metadata: ServerRequestMetadata
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let code = metadata.pathParameters["code"], let scope = InjectorActor.currentScope else {
            return (HTTPResponse(status: .internalServerError), nil)
        }
        guard let link = try await LinkLookup.scoped(String(code), in: scope) else {
            return (HTTPResponse(status: .notFound), nil)
        }
        return (HTTPResponse(status: .ok), HTTPBody(link.url))
    }

    /// The scope opened and ended, nothing built in it (the user is one of its values): the
    /// glue's cost.
    @Sendable private func openedGetLink(
        _ request: HTTPRequest, _ body: HTTPBody?, _ metadata: ServerRequestMetadata
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let code = metadata.pathParameters["code"], let scope = InjectorActor.currentScope,
            let link = try await LinkLookup.handWired(
                String(code), requestID: RequestIdentifier("req-1"), user: try await scope.get(User.self),
                logger: logger, table: fixture.table, auditLog: fixture.auditLog)
        else { return (HTTPResponse(status: .notFound), nil) }
        return (HTTPResponse(status: .ok), HTTPBody(link.url))
    }

    /// The twin: the same work wired by hand, with the request's values it reads itself.
    private func plainGetLink(
        _ request: HTTPRequest, _ body: HTTPBody?, _ metadata: ServerRequestMetadata
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let user = User(authorization: request.headerFields[.authorization]) else { throw Unauthorized() }
        guard let code = metadata.pathParameters["code"],
            let link = try await LinkLookup.handWired(
                String(code), requestID: RequestIdentifier("req-1"), user: user,
                logger: logger,
                table: fixture.table, auditLog: fixture.auditLog)
        else { return (HTTPResponse(status: .notFound), nil) }
        return (HTTPResponse(status: .ok), HTTPBody(link.url))
    }

    /// A request without a bearer.
    struct Unauthorized: Error {}
}
