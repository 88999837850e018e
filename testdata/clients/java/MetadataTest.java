// pgJDBC's DatabaseMetaData against a server: getTables, getColumns and
// getSchemas, printed column by column so the output can be compared
// between gpusql and PostgreSQL.
// Usage: java -cp postgresql.jar MetadataTest.java JDBC_URL
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

    public static void main(String[] args) throws Exception {
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
