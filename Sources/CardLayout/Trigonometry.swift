/// Returns the sine and cosine of an angle in degrees, using only the standard library.
///
/// The angle is reduced to a quarter turn and a remainder in [-45°, 45°]; the remainder's sine
/// and cosine come from their Taylor series, which at |x| ≤ π/4 reach full `Double` precision
/// within twelve terms. Multiples of 90° are exact.
func sineAndCosine(degrees: Double) -> (sine: Double, cosine: Double) {
  guard degrees.isFinite else { return (.nan, .nan) }
  let turns = (degrees / 90).rounded()
  let remainder = (degrees - turns * 90) * Double.pi / 180
  let square = remainder * remainder
  var sine = remainder
  var cosine = 1.0
  var sineTerm = remainder
  var cosineTerm = 1.0
  for step in 1...12 {
    let n = Double(2 * step)
    sineTerm *= -square / (n * (n + 1))
    cosineTerm *= -square / ((n - 1) * n)
    sine += sineTerm
    cosine += cosineTerm
  }
  // NB: `turns` may be huge for absurd angles; only its value modulo 4 matters.
  let quarter = Int(turns.truncatingRemainder(dividingBy: 4) + 4) % 4
  switch quarter {
  case 0: return (sine, cosine)
  case 1: return (cosine, -sine)
  case 2: return (-sine, -cosine)
  default: return (-cosine, sine)
  }
}
