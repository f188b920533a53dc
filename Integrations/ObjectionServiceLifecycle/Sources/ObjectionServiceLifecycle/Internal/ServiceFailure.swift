import Objection

/// A service's error as the inner group that runs the injector's services sees it: that group
/// logs an error's description ("Service threw error", at `debug`), which for a provider's or a
/// service's own error may carry a connection string or a token. This one describes itself as
/// ``LoggableError`` does, by type; ``InjectorService`` unwraps it, so `run()` still throws the
/// service's error unchanged.
struct ServiceFailure: Error, CustomStringConvertible {
    let underlying: any Error

    init(_ underlying: any Error) {
        self.underlying = underlying
    }

    var description: String { LoggableError(underlying).description }

    /// `error` unwrapped if it is a ``ServiceFailure``.
    static func unwrapped(_ error: any Error) -> any Error {
        (error as? ServiceFailure)?.underlying ?? error
    }
}
