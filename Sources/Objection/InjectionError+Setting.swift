extension InjectionError {
    /// What is wrong with a configuration setting.
    ///
    /// ```swift
    /// throw InjectionError.invalidSetting("database.port", .malformed(expected: "Int"), path: r.resolutionPath)
    /// ```
    public enum SettingProblem: Sendable, Hashable {
        /// No provider has a value for the key.
        case missing
        /// The value cannot be read as `expected` (a type's name, such as `Int`).
        case malformed(expected: String)
    }

    /// A configuration setting that the binding at the end of `path` needs is missing or
    /// malformed: an ``Code/invalidSetting`` error whose message names the setting's `key` and the
    /// binding path, never the value — which may be a secret. A provider throws it, and startup
    /// fails with it when the binding is an eager singleton.
    ///
    /// ```swift
    /// binder.bind(DatabaseConfig.self).to { r in
    ///     guard let host = config.string(forKey: "database.host") else {
    ///         throw InjectionError.invalidSetting("database.host", .missing, path: r.resolutionPath)
    ///     }
    ///     return DatabaseConfig(host: host)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - key: The setting's key, as the configuration names it (`database.port`).
    ///   - problem: Whether it is missing or malformed.
    ///   - path: The binding path that needed it, outermost first: ``Resolver/resolutionPath``.
    /// - Returns: The error.
    public static func invalidSetting(_ key: String, _ problem: SettingProblem, path: [BindingKey]) -> InjectionError {
        let what =
            switch problem {
            case .missing: "Missing configuration setting '\(key)'"
            case .malformed(let expected): "Configuration setting '\(key)' is not a valid \(expected)"
            }
        let requiredBy = path.isEmpty ? "" : " (required by \(path.arrowJoined))"
        return InjectionError(code: .invalidSetting, message: what + requiredBy, path: path)
    }
}
