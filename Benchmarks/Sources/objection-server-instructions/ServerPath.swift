import Objection

/// A framework and a route: the scoped one, or its hand-wired twin.
struct ServerPath: Sendable {
    /// The server integration a request goes through.
    enum Framework: String, CaseIterable, Sendable {
        case hummingbird, vapor, openapi, grpc
    }

    /// What a route does per request.
    enum Route: String, Sendable {
        /// The request scope, a transaction scope in it, the objects resolved from that.
        case scoped
        /// The same work wired by hand.
        case twin
        /// The request scope opened and ended, the work wired by hand: the glue's cost.
        case opened
        /// Hummingbird only: the objects resolved from the request scope, with no transaction
        /// scope.
        case unnested
        /// Vapor only: the scoped route with its handler wrapped by `scoped(_:)` instead of the
        /// middleware, as the Vapor example serves its routes.
        case handler
    }

    let framework: Framework
    let route: Route

    /// Requests sent before the counted ones, so that both runs' caches are warm.
    static let warmUp = 200

    /// Every path's name: each framework's scoped, twin and opened routes, and the routes only
    /// one framework has.
    static let names =
        Framework.allCases.flatMap { framework in
            [Route.scoped, .twin, .opened].map { "\(framework.rawValue)-\($0.rawValue)" }
        } + ["hummingbird-unnested", "vapor-handler"]

    /// `hummingbird-scoped|hummingbird-twin|…`
    static let usage = names.joined(separator: "|")

    /// The path named `name`, or `nil`.
    init?(name: String) {
        guard Self.names.contains(name), let dash = name.lastIndex(of: "-"),
            let framework = Framework(rawValue: String(name[..<dash])),
            let route = Route(rawValue: String(name[name.index(after: dash)...]))
        else { return nil }
        self.route = route
        self.framework = framework
    }

    /// Sends ``warmUp`` and then `iterations` requests, and checks that each found the link and
    /// that each ran one transaction and flushed one audit trail.
    func run(iterations: Int) async throws {
        let fixture = try await LinkFixture.make()
        switch framework {
        case .hummingbird:
            try await Self.send(
                HummingbirdRequests(route: route, fixture: fixture), url: fixture.url, iterations: iterations)
        case .vapor:
            let requests = try await VaporRequests.make(route: route, fixture: fixture)
            do {
                try await Self.send(requests, url: fixture.url, iterations: iterations)
            } catch {
                try? await requests.shutdown()
                throw error
            }
            try await requests.shutdown()
        case .openapi:
            try await Self.send(
                OpenAPIRequests(route: route, fixture: fixture), url: fixture.url, iterations: iterations)
        case .grpc:
            try await GRPCRequests.run(route: route, fixture: fixture, warmUp: Self.warmUp, iterations: iterations)
        }
        let sent = Self.warmUp + iterations
        guard fixture.table.commits == sent, fixture.auditLog.count == sent else {
            throw UnexpectedAnswer(
                status: "\(sent) requests, \(fixture.table.commits) commits, \(fixture.auditLog.count) audit events")
        }
        // No request scope left open. (Not how each ended: one whose handle was dropped ends from
        // its release, in a task of its own, usually before this.)
        if let open = await fixture.injector.drain(within: .zero) {
            throw UnexpectedAnswer(status: "request scopes still open after the responses: \(open.code)")
        }
        await fixture.injector.shutdown()
    }

    private static func send(_ requests: some RequestPath, url: String, iterations: Int) async throws {
        for _ in 0..<(warmUp + iterations) {
            let body = try await requests.run()
            guard body == url else { throw UnexpectedAnswer(status: "a body of \(body.utf8.count) bytes") }
        }
    }
}
