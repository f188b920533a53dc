import Hummingbird
import Logging
import ObjectionHummingbird

/// What the OpenAPI operations need of Hummingbird's request, which the generated `APIProtocol`
/// methods do not see: the request id ``RequestIDMiddleware`` settled, the request's logger and
/// the user its `Authorization` header names, handed over in a task-local by ``Middleware``.
struct HummingbirdRequestValues: Sendable {
    let requestID: RequestIdentifier
    let logger: Logger
    /// `nil` without a valid `Authorization: Bearer <name>`.
    let user: AuthenticatedUser?

    /// The values of the request this task serves; `nil` outside ``Middleware``.
    @TaskLocal static var current: HummingbirdRequestValues?

    /// Runs the rest of the chain with the request's values as ``current``.
    struct Middleware: RouterMiddleware {
        typealias Context = BasicInjectingRequestContext

        func handle(
            _ request: Request,
            context: Context,
            next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let values = HummingbirdRequestValues(
                requestID: context.requestID ?? RequestIdentity.requestID(of: request, context: context),
                logger: context.logger,
                user: RequestIdentity.user(in: request.headers)
            )
            return try await HummingbirdRequestValues.$current.withValue(values) { try await next(request, context) }
        }
    }

    /// ``current``, or an error a server answers with an opaque `500`: a route registered without
    /// ``Middleware``.
    static func required() throws -> HummingbirdRequestValues {
        guard let current else { throw MissingMiddleware() }
        return current
    }

    struct MissingMiddleware: Error {}
}
