// DynamoDB Local for the twin (run as a single-file source program: java -cp <DynamoDBLocal.jar> DynamoDbLoopback.java
// <DynamoDB Local's own arguments>). Two things its own launcher cannot do:
// - it listens on 127.0.0.1 only: DynamoDB Local has no host option and its Jetty server listens on every interface, so
//   its connectors are given the loopback host before it starts;
// - it exits when the twin's process is gone, however the twin ended (Ctrl-C, SIGTERM, SIGKILL, a crash): it watches
//   its parent process (the source launcher gives a program no usable standard input, so that can't be the signal).
// Everything is reached by reflection, so this file compiles against the JDK alone.
import java.lang.reflect.Field;

public class DynamoDbLoopback {
  public static void main(String[] args) throws Exception {
    // The twin (-Dmodelloop.parentPid) started this process: when it is gone (this process has another parent, even
    // before this line ran), so is DynamoDB Local.
    long parent = Long.parseLong(System.getProperty("modelloop.parentPid", "-1"));
    Thread watchdog = new Thread(() -> {
      while (ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) == parent) {
        try {
          Thread.sleep(250);
        } catch (InterruptedException ignored) {
          return;
        }
      }
      System.exit(0);
    }, "parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();

    Class<?> runner = Class.forName("com.amazonaws.services.dynamodbv2.local.main.ServerRunner");
    Object proxyServer = runner.getMethod("createServerFromCommandLineArgs", String[].class).invoke(null, (Object) args);
    Field jettyField = proxyServer.getClass().getDeclaredField("server");
    jettyField.setAccessible(true);
    Object jetty = jettyField.get(proxyServer);
    Object[] connectors = (Object[]) jetty.getClass().getMethod("getConnectors").invoke(jetty);
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no connector to bind to 127.0.0.1");
    for (Object connector : connectors) connector.getClass().getMethod("setHost", String.class).invoke(connector, "127.0.0.1");

    proxyServer.getClass().getMethod("start").invoke(proxyServer);
    System.out.println("DynamoDB Local listening on 127.0.0.1");
  }
}
