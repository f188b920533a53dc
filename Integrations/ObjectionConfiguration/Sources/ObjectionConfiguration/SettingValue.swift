import Configuration

/// A type a setting can be read as: `String`, `Int`, `Double`, `Bool`.
///
/// ```swift
/// let port: Int = try await r.setting("http.port")
/// ```
public protocol SettingValue: Sendable {
    /// The name an error gives the type: `Int`.
    static var settingTypeName: String { get }

    /// Reads `key` from `reader` as this type: `nil` when it is missing or cannot be read so.
    static func read(_ key: ConfigKey, from reader: ConfigReader, isSecret: Bool) -> Self?
}

extension SettingValue {
    /// The type's name.
    ///
    /// ```swift
    /// Int.settingTypeName   // "Int"
    /// ```
    public static var settingTypeName: String { String(describing: Self.self) }
}

extension String: SettingValue {
    /// Reads `key` as text.
    ///
    /// ```swift
    /// let host: String = try await r.setting("database.host")
    /// ```
    public static func read(_ key: ConfigKey, from reader: ConfigReader, isSecret: Bool) -> String? {
        reader.string(forKey: key, isSecret: isSecret)
    }
}

extension Int: SettingValue {
    /// Reads `key` as an integer.
    ///
    /// ```swift
    /// let port: Int = try await r.setting("database.port")
    /// ```
    public static func read(_ key: ConfigKey, from reader: ConfigReader, isSecret: Bool) -> Int? {
        reader.int(forKey: key, isSecret: isSecret)
    }
}

extension Double: SettingValue {
    /// Reads `key` as a number.
    ///
    /// ```swift
    /// let ratio: Double = try await r.setting("cache.sample-ratio")
    /// ```
    public static func read(_ key: ConfigKey, from reader: ConfigReader, isSecret: Bool) -> Double? {
        reader.double(forKey: key, isSecret: isSecret)
    }
}

extension Bool: SettingValue {
    /// Reads `key` as `true` or `false`.
    ///
    /// ```swift
    /// let tls: Bool = try await r.setting("database.tls")
    /// ```
    public static func read(_ key: ConfigKey, from reader: ConfigReader, isSecret: Bool) -> Bool? {
        reader.bool(forKey: key, isSecret: isSecret)
    }
}
