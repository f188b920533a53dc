import Logging
import Objection

/// One route of one framework, in process: each ``run()`` sends it one request.
protocol RequestPath: Sendable {
    /// Sends one request and reads its whole response.
    ///
    /// - Returns: The response's body, as text.
    func run() async throws -> String
}

/// What every path serves: one link, in a table the scoped routes reach through an injector and
/// their twins directly, and the audit log both flush to.
struct LinkFixture: Sendable {
    let code: String
    let url: String
    let table: LinkTable
    let auditLog: AuditLog
    let injector: InjectorActor

    /// A table holding the one link, and an injector of ``RequestModule`` on it.
    static func make() async throws -> LinkFixture {
        let link = Link(code: "abc", url: "https://example.com/a")
        let table = LinkTable([link])
        let auditLog = AuditLog()
        let injector = try await InjectorActor(modules: [RequestModule(table: table, auditLog: auditLog)])
        return LinkFixture(code: link.code, url: link.url, table: table, auditLog: auditLog, injector: injector)
    }
}

/// An answer other than the one link: the path is broken, and its count would mean nothing.
struct UnexpectedAnswer: Error, CustomStringConvertible {
    let status: String
    var description: String { "unexpected answer: \(status)" }
}
