/// A setting that could not be read: it names the setting and what it should be, never the value
/// (which may be a password).
///
/// ```swift
/// do {
///     settings = try ServerSettings(arguments: arguments, environment: environment)
/// } catch {
///     logger.critical("\(error)")   // Setting POSTGRES_PORT is not a port, 0 to 65535
/// }
/// ```
public struct SettingsError: Error, CustomStringConvertible {
    /// The environment variable, or `port argument`.
    public let key: String
    /// What it should have been.
    public let expected: String

    public var description: String { "Setting \(key) is not \(expected)" }
}
