package io.heliograph.launcher;

import java.util.Map;

import org.eclipse.equinox.log.SynchronousLogListener;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceReference;
import org.osgi.service.log.LogEntry;
import org.osgi.service.log.LogLevel;
import org.osgi.service.log.LogReaderService;
import org.osgi.service.log.Logger;
import org.osgi.service.log.admin.LoggerAdmin;

/**
 * Writes the framework's Log Service entries (Equinox itself, Felix SCR and FileInstall log there,
 * e.g. a component that fails to activate) to the process's log, under the logging bundle's
 * symbolic name, so that nothing important stays hidden in the framework's log. The listener is
 * synchronous: the line is written in the thread that logged, which the log shows. The Log Service
 * API comes from the framework jar, which is on the launcher's class path, so no reflection is
 * needed here.
 */
final class FrameworkLogForwarder {

    private FrameworkLogForwarder() {
    }

    static void attach(BundleContext systemContext, LauncherLog log) {
        ServiceReference<LogReaderService> reference = systemContext.getServiceReference(LogReaderService.class);
        if (reference == null) {
            log.warn("the framework has no Log Service: framework and component messages are not shown");
            return;
        }
        LogReaderService reader = systemContext.getService(reference);
        reader.addLogListener((SynchronousLogListener) entry -> forward(entry, log));
        openRootLevel(systemContext, log);
    }

    /**
     * The Log Service drops entries below WARN before any reader sees them (the specification's
     * default); let through what the launcher's level shows, e.g. FileInstall's "Installed bundle".
     */
    private static void openRootLevel(BundleContext systemContext, LauncherLog log) {
        ServiceReference<LoggerAdmin> reference = systemContext.getServiceReference(LoggerAdmin.class);
        if (reference == null) {
            return;
        }
        LoggerAdmin admin = systemContext.getService(reference);
        boolean debug = log.isEnabled("debug");
        LogLevel root = debug ? LogLevel.DEBUG : log.isEnabled("info") ? LogLevel.INFO : LogLevel.WARN;
        // "Events.Bundle", "Events.Service"...: the framework logs every bundle and service event at
        // INFO; only their warnings and errors are news.
        admin.getLoggerContext(null).setLogLevels(Map.of(Logger.ROOT_LOGGER_NAME, root, "Events", LogLevel.WARN));
        // Declarative Services narrates its own start at INFO; its warnings (a component that cannot
        // activate) are what matters, unless the operator asked for debug.
        if (!debug) {
            admin.getLoggerContext(ControllerRuntime.SCR).setLogLevels(Map.of(Logger.ROOT_LOGGER_NAME, LogLevel.WARN));
        }
    }

    private static void forward(LogEntry entry, LauncherLog log) {
        Bundle bundle = entry.getBundle();
        String logger = bundle == null || bundle.getSymbolicName() == null ? entry.getLoggerName()
                : bundle.getSymbolicName();
        log.log(levelName(entry.getLogLevel()), logger, entry.getMessage(), entry.getException());
    }

    private static String levelName(LogLevel level) {
        return switch (level) {
            case AUDIT, ERROR -> "error";
            case WARN -> "warn";
            case INFO -> "info";
            case DEBUG -> "debug";
            case TRACE -> "trace";
        };
    }
}
