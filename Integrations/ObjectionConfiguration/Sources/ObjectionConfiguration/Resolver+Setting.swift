import Configuration
import Objection

extension Resolver {
    /// Reads the required setting `key` from the injector's `ConfigReader` (see
    /// ``ConfigurationModule``), as `type`.
    ///
    /// A missing or malformed value throws ``Objection/InjectionError/Code/invalidSetting``
    /// naming `key` and the binding path that needed it — never the value, which may be a
    /// secret. Read settings in an eager singleton's provider, and a server that is missing one
    /// fails at start-up with that error instead of at its first request.
    ///
    /// ```swift
    /// binder.bind(DatabaseConfig.self).to { r in
    ///     DatabaseConfig(
    ///         host: try await r.setting("database.host"),
    ///         port: try await r.setting("database.port", default: 5432),
    ///         password: try await r.setting("database.password", isSecret: true)
    ///     )
    /// }.asEagerSingleton()
    /// ```
    ///
    /// - Parameters:
    ///   - key: The setting's key, dot-separated: `database.port` is the environment variable
    ///     `DATABASE_PORT`.
    ///   - type: What to read it as.
    ///   - isSecret: Whether the value is redacted from the reader's access reports.
    /// - Returns: The value.
    /// - Throws: ``Objection/InjectionError/Code/invalidSetting``; ``Objection/InjectionError``
    ///   when no `ConfigReader` is bound.
    public func setting<Value: SettingValue>(
        _ key: String,
        as type: Value.Type = Value.self,
        isSecret: Bool = false
    ) async throws -> Value {
        guard let value = try await optionalSetting(key, as: type, isSecret: isSecret) else {
            throw InjectionError.invalidSetting(key, .missing, path: resolutionPath)
        }
        return value
    }

    /// Reads the setting `key` as `type`, or `defaultValue` when it is missing; a malformed value
    /// throws, as in ``setting(_:as:isSecret:)``, rather than falling back silently.
    ///
    /// ```swift
    /// let port = try await r.setting("http.port", default: 8080)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The setting's key.
    ///   - type: What to read it as.
    ///   - defaultValue: The value when no provider has one.
    ///   - isSecret: Whether the value is redacted from the reader's access reports.
    /// - Returns: The value, or `defaultValue`.
    /// - Throws: ``Objection/InjectionError/Code/invalidSetting`` for a malformed value.
    public func setting<Value: SettingValue>(
        _ key: String,
        as type: Value.Type = Value.self,
        default defaultValue: Value,
        isSecret: Bool = false
    ) async throws -> Value {
        try await optionalSetting(key, as: type, isSecret: isSecret) ?? defaultValue
    }

    /// The value of `key` as `type`, `nil` when missing; throws when present but malformed.
    private func optionalSetting<Value: SettingValue>(
        _ key: String,
        as type: Value.Type,
        isSecret: Bool
    ) async throws -> Value? {
        let reader = try await get(ConfigReader.self)
        let configKey = ConfigKey(key)
        if let reads = try await getIfBound(SettingReads.self) {
            reads.record(
                key, fingerprint: SettingReads.fingerprint(of: configKey, in: reader.snapshot()), readBy: resolutionPath
            )
        }
        if let value = Value.read(configKey, from: reader, isSecret: isSecret) { return value }
        // Present but not readable as `Value`: malformed, named without its value. A typed
        // provider (in memory, JSON, YAML) holds `true` as a Boolean that no other read returns,
        // so presence is any read at all succeeding, not only a string's.
        guard !Self.holdsValue(for: configKey, in: reader) else {
            throw InjectionError.invalidSetting(key, .malformed(expected: Value.settingTypeName), path: resolutionPath)
        }
        return nil
    }

    /// Whether some provider of `reader` has a value for `key`, of any of the types a
    /// configuration value can have. Read as secrets, so that access reports show none of them.
    private static func holdsValue(for key: ConfigKey, in reader: ConfigReader) -> Bool {
        reader.string(forKey: key, isSecret: true) != nil
            || reader.bool(forKey: key, isSecret: true) != nil
            || reader.int(forKey: key, isSecret: true) != nil
            || reader.double(forKey: key, isSecret: true) != nil
            || reader.stringArray(forKey: key, isSecret: true) != nil
            || reader.intArray(forKey: key, isSecret: true) != nil
            || reader.doubleArray(forKey: key, isSecret: true) != nil
            || reader.boolArray(forKey: key, isSecret: true) != nil
            || reader.bytes(forKey: key, isSecret: true) != nil
            || reader.byteChunkArray(forKey: key, isSecret: true) != nil
    }
}
