package org.priodp.aggregator.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import java.util.Locale;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the process logs to stderr: {@code text} (the pattern of the command line's logback.xml: time, level, logger,
 * message) or {@code json} (one JSON object per line by logback's {@link JsonEncoder}: timestamp,
 * level, threadName, loggerName, formattedMessage and, when there is one, throwable). Applies to
 * the logback root logger at run time, so no system property is needed.
 */
public enum LogFormat {
  TEXT,
  JSON;

  /** Parses "text" or "json" (any case); throws IllegalArgumentException naming the choices. */
  public static LogFormat parse(String s) {
    if (s != null) {
      for (LogFormat f : values()) {
        if (f.name().equalsIgnoreCase(s.strip())) {
          return f;
        }
      }
    }
    throw new IllegalArgumentException("--log-format: expected text or json, got " + s);
  }

  /** Returns the lower-case name used on the command line. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Switches the root logger's appenders to this format (TEXT leaves the configuration file's
   * appenders alone). Does nothing when logback is not the SLF4J backend.
   */
  public void apply() {
    if (this == TEXT) {
      return;
    }
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext ctx)) {
      return;
    }
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(ctx);
    encoder.setWithSequenceNumber(false);
    encoder.setWithNanoseconds(false);
    encoder.setWithContext(false);
    encoder.setWithMessage(false);
    encoder.setWithArguments(false);
    encoder.setWithFormattedMessage(true);
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(ctx);
    appender.setName("STDERR_JSON");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    ch.qos.logback.classic.Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
    root.detachAndStopAllAppenders();
    root.addAppender(appender);
  }

  /**
   * Raises the named logger to WARN until the returned handle is closed, then restores its level
   * (the load generator: one line per request would measure the console). Does nothing when
   * logback is not the SLF4J backend.
   */
  public static AutoCloseable quiet(String loggerName) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx)) {
      return () -> { };
    }
    ch.qos.logback.classic.Logger logger = ctx.getLogger(loggerName);
    Level previous = logger.getLevel();
    logger.setLevel(Level.WARN);
    return () -> logger.setLevel(previous);
  }

  /** Logs org.priodp at DEBUG (the --verbose switch): stack traces of server errors included. */
  public static void verbose() {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext ctx) {
      ctx.getLogger("org.priodp").setLevel(Level.DEBUG);
    }
  }
}
