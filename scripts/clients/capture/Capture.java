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
        // Tableau's PostgreSQL connector works through pgJDBC; its JDBC
        // metadata enumeration (connector-plugin-sdk, "Metadata
        // Enumeration" and the JDBC capabilities reference) lists the
        // databases, the schemas and the tables of one schema, then reads a
        // chosen table's columns from a "WHERE 1=0" query's result set
        // (CAP_QUERY_WHERE_FALSE_METADATA in its postgres_jdbc sample) and
        // its primary keys, foreign keys and indexes.
        try (Connection c = open(a[0], a[1], "cap_tableau_connect")) {
            DatabaseMetaData md = c.getMetaData();
            drain(md.getCatalogs());
            drain(md.getSchemas("postgres", null));
            drain(md.getTables("postgres", "public", "%", null));
        }
        try (Connection c = open(a[0], a[1], "cap_tableau_table")) {
            DatabaseMetaData md = c.getMetaData();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM \"public\".\"lineitem\" WHERE 1=0")) {
                ResultSet rs = ps.executeQuery();
                ResultSetMetaData rm = rs.getMetaData();
                for (int i = 1; i <= rm.getColumnCount(); i++) {
                    rm.getColumnTypeName(i);
                    rm.isNullable(i);
                }
                drain(rs);
            }
            drain(md.getPrimaryKeys("postgres", "public", "lineitem"));
            drain(md.getImportedKeys("postgres", "public", "lineitem"));
            drain(md.getIndexInfo("postgres", "public", "lineitem", false, true));
        }
    }
}
