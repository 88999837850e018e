// pgJDBC's DatabaseMetaData against a server: getTables, getColumns and
// getSchemas (no mode), or (mode "keys") the calls past those: keys,
// indexes, type info, functions, procedures, privileges, row identifiers,
// each result printed whole so the output can be compared between gpusql
// and PostgreSQL.
// Usage: java -cp postgresql.jar MetadataTest.java JDBC_URL [keys]
import java.sql.*;

public class MetadataTest {
    static void print(String label, ResultSet rs, String... cols) throws SQLException {
        System.out.println(label);
        while (rs.next()) {
            StringBuilder b = new StringBuilder(" ");
            for (String col : cols) {
                b.append(' ').append(col).append('=').append(rs.getString(col));
            }
            System.out.println(b);
        }
        rs.close();
    }

    // dump prints a result as "== label", its column labels, then one
    // line per row, values separated by " | ".
    static void dump(String label, ResultSet rs) throws SQLException {
        System.out.println("== " + label);
        ResultSetMetaData m = rs.getMetaData();
        StringBuilder h = new StringBuilder("#");
        for (int i = 1; i <= m.getColumnCount(); i++) {
            h.append(i > 1 ? " | " : " ").append(m.getColumnLabel(i));
        }
        System.out.println(h);
        while (rs.next()) {
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= m.getColumnCount(); i++) {
                b.append(i > 1 ? " | " : "").append(rs.getString(i));
            }
            System.out.println(b);
        }
        rs.close();
    }

    interface Call {
        ResultSet call() throws SQLException;
    }

    // run prints a call's result, or its error (which fails the Go test:
    // PostgreSQL answers every one of these).
    static void run(String label, Call c) {
        try {
            dump(label, c.call());
        } catch (SQLException e) {
            System.out.println("== " + label + " ERROR " + e.getSQLState() + " " + e.getMessage().split("\n")[0]);
        }
    }

    static void keys(Connection c) throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        // lineitem has no keys or indexes: empty results, never errors.
        run("getPrimaryKeys", () -> md.getPrimaryKeys(null, null, "lineitem"));
        run("getIndexInfo", () -> md.getIndexInfo(null, null, "lineitem", false, true));
        run("getIndexInfo unique", () -> md.getIndexInfo(null, "public", "lineitem", true, false));
        run("getImportedKeys", () -> md.getImportedKeys(null, null, "lineitem"));
        run("getExportedKeys", () -> md.getExportedKeys(null, null, "lineitem"));
        run("getCrossReference", () -> md.getCrossReference(null, null, "lineitem", null, null, "lineitem"));
        run("getBestRowIdentifier", () -> md.getBestRowIdentifier(null, null, "lineitem", DatabaseMetaData.bestRowSession, true));
        run("getVersionColumns", () -> md.getVersionColumns(null, null, "lineitem"));
        run("getTablePrivileges", () -> md.getTablePrivileges(null, null, "lineitem"));
        run("getColumnPrivileges", () -> md.getColumnPrivileges(null, null, "lineitem", "l_ship%"));
        run("getTypeInfo", () -> md.getTypeInfo());
        run("getFunctions version", () -> md.getFunctions(null, "pg_catalog", "version"));
        run("getFunctions upper", () -> md.getFunctions(null, null, "upper"));
        run("getFunctionColumns version", () -> md.getFunctionColumns(null, "pg_catalog", "version", "%"));
        run("getProcedures", () -> md.getProcedures(null, null, "%"));
        run("getProcedureColumns", () -> md.getProcedureColumns(null, "pg_catalog", "version", "%"));
        run("getCatalogs", () -> md.getCatalogs());
        run("getTableTypes", () -> md.getTableTypes());
        System.out.println("== scalars");
        System.out.println("getMaxColumnsInIndex " + md.getMaxColumnsInIndex());
        System.out.println("getIdentifierQuoteString " + md.getIdentifierQuoteString());
        System.out.println("supportsTransactions " + md.supportsTransactions());
        // HikariCP (Metabase) sets the isolation level on each connection
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        System.out.println("getTransactionIsolation " + c.getTransactionIsolation());
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 1 && args[1].equals("keys")) {
            try (Connection c = DriverManager.getConnection(args[0])) {
                keys(c);
            }
            return;
        }
        try (Connection c = DriverManager.getConnection(args[0])) {
            DatabaseMetaData md = c.getMetaData();
            System.out.println("product " + md.getDatabaseProductName());
            print("getTables", md.getTables(null, null, "%", new String[] {"TABLE", "VIEW"}),
                    "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS");
            print("getColumns", md.getColumns(null, null, "lineitem", "%"),
                    "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE",
                    "DECIMAL_DIGITS", "NULLABLE", "ORDINAL_POSITION", "IS_NULLABLE", "IS_AUTOINCREMENT");
            print("getSchemas", md.getSchemas(), "TABLE_SCHEM");
            // ResultSetMetaData of a table's columns: pgJDBC looks them up
            // in pg_attribute/pg_class (isAutoIncrement, getColumnTypeName).
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT l_orderkey, l_shipmode FROM lineitem LIMIT 1")) {
                ResultSetMetaData rm = rs.getMetaData();
                for (int i = 1; i <= rm.getColumnCount(); i++) {
                    System.out.println("column " + rm.getColumnName(i) + " " + rm.getColumnTypeName(i) + " table=" + rm.getTableName(i)
                            + " autoincrement=" + rm.isAutoIncrement(i) + " nullable=" + rm.isNullable(i));
                }
            }
        }
    }
}
