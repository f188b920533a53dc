import Objection

/// What may be logged of `error`: an ``InjectionError``'s description, which names types and
/// binding names only, or else the error's type alone, since any other error's description may
/// carry values (a connection string, a token, a row).
func safeDescription(of error: any Error) -> String {
    if let error = error as? InjectionError { return error.description }
    return String(describing: type(of: error))
}
