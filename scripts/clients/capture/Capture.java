// pgJDBC actions for the introspection capture (java Capture.java HOST PORT,
// with Debian's postgresql.jar on the class path).
import java.sql.*;
import java.util.Properties;

public class Capture {
    static Connection open(String host, String port, String app) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "postgres");
        p.setProperty("ApplicationName", app);
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", p);
    }

    static void drain(ResultSet rs) throws SQLException {
        while (rs.next()) {
        }
        rs.close();
    }

    public static void main(String[] a) throws Exception {
        try (Connection c = open(a[0], a[1], "cap_jdbc_connect")) {
        }
        try (Connection c = open(a[0], a[1], "cap_jdbc_prepared")) {
            try (PreparedStatement ps = c.prepareStatement("SELECT l_orderkey FROM lineitem WHERE l_orderkey > ? AND l_shipmode = ?")) {
                ps.setLong(1, 1);
                ps.setString(2, "AIR");
                drain(ps.executeQuery());
            }
        }
        try (Connection c = open(a[0], a[1], "cap_jdbc_gettables")) {
            drain(c.getMetaData().getTables(null, null, "%", new String[] {"TABLE", "VIEW"}));
        }
        try (Connection c = open(a[0], a[1], "cap_jdbc_getcolumns")) {
            drain(c.getMetaData().getColumns(null, null, "lineitem", "%"));
        }
        try (Connection c = open(a[0], a[1], "cap_jdbc_getschemas")) {
            drain(c.getMetaData().getSchemas());
        }
    }
}
