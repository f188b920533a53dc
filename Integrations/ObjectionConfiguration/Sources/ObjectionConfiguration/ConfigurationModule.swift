import Configuration
import Objection

/// Binds a `ConfigReader` in the injector, so that providers read their settings from it with
/// ``Objection/Resolver/setting(_:as:isSecret:)``.
///
/// ```swift
/// let config = ConfigReader(providers: [
///     EnvironmentVariablesProvider(secretsSpecifier: .specific(["DATABASE_PASSWORD"])),
///     InMemoryProvider(values: ["http.port": 8080]),
/// ])
/// let injector = try await InjectorActor(modules: [ConfigurationModule(config), AppModule()])
/// ```
public struct ConfigurationModule: Module {
    private let reader: ConfigReader

    /// Creates the module.
    ///
    /// ```swift
    /// ConfigurationModule(ConfigReader(provider: EnvironmentVariablesProvider()))
    /// ```
    ///
    /// - Parameter reader: Where the settings are read, usually the environment over defaults.
    public init(_ reader: ConfigReader) {
        self.reader = reader
    }

    /// Binds the reader as `ConfigReader`, and a `SettingReads` that records which bindings read
    /// which settings (for ``ConfigurationRefresher``).
    ///
    /// ```swift
    /// let reader = try await injector.get(ConfigReader.self)
    /// ```
    public func configure(_ binder: Binder) {
        binder.bind(ConfigReader.self).toInstance(reader)
        binder.bind(SettingReads.self).toInstance(SettingReads())
    }
}
